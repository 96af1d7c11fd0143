// SPDX-License-Identifier: BSL-1.0
// Starts DynamoDB Local listening on 127.0.0.1 only. Its ServerRunner binds every interface and
// has no option for the host, so this builds the server as ServerRunner does (the same
// command-line options but -port), sets the host of its Jetty connector, and lets the system pick
// a free port (ServerRunner refuses port 0), so that two runs never race for one. The address
// bound is printed as "pksk-dynamodb-local 127.0.0.1:<port>" for scripts/dynamodb-local.sh.

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

public final class LoopbackDynamoDBLocal {
  public static void main(String[] args) throws Exception {
    String[] withPort = java.util.Arrays.copyOf(args, args.length + 2);
    withPort[args.length] = "-port";
    withPort[args.length + 1] = "8000";  // replaced by a free port below
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(withPort);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
      ((ServerConnector) connector).setPort(0);
    }
    proxy.start();
    ServerConnector bound = (ServerConnector) server.getConnectors()[0];
    System.out.println("pksk-dynamodb-local " + bound.getHost() + ":" + bound.getLocalPort());
    System.out.flush();
    proxy.join();
  }
}
