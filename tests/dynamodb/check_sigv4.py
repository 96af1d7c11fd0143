#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Holds pksk's AWS Signature Version 4 and credential resolution against botocore's.

    check_sigv4.py <sigv4_sign executable>

Signs fixed requests at a fixed time with pksk (the sigv4_sign program) and with botocore's
SigV4Auth, and compares every header byte for byte. Then resolves credentials and the region
from prepared environments and AWS config files with both, and compares what they found. Needs
botocore (scripts/python-venv.sh installs it into build/venv). Exits non-zero on a difference,
printing it.
"""

import datetime
import json
import os
import subprocess
import sys
import tempfile
from unittest import mock

TIMESTAMP = datetime.datetime(2026, 11, 24, 1, 2, 3)
KEY_ID = "AKIDEXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQW+/="

DYNAMODB_HEADERS = [
    ["Content-Type", "application/x-amz-json-1.0"],
    ["X-Amz-Target", "DynamoDB_20120810.Query"],
]

# (name, method, url, query pairs, headers, body, session token)
CASES = [
    ("dynamodb query", "POST", "https://dynamodb.us-east-1.amazonaws.com/", [],
     DYNAMODB_HEADERS, '{"TableName":"shop","KeyConditionExpression":"#pk = :pk"}', ""),
    ("dynamodb local on a port", "POST", "http://127.0.0.1:8000", [], DYNAMODB_HEADERS,
     '{"TableName":"shop"}', ""),
    ("session token", "POST", "https://dynamodb.eu-west-1.amazonaws.com/", [],
     DYNAMODB_HEADERS, '{"TableName":"t"}', TOKEN),
    ("empty body", "POST", "https://example.amazonaws.com/", [], [], "", ""),
    ("empty GET", "GET", "https://example.amazonaws.com", [], [], "", ""),
    ("default port dropped", "GET", "https://Example.AmazonAWS.com:443/a", [], [], "", ""),
    ("http default port dropped", "GET", "http://example.com:80/", [], [], "", ""),
    ("query string", "GET", "https://example.amazonaws.com/", [
        ("Param2", "value2"), ("Param1", "value1"), ("a", "b c"), ("a", "a"),
        ("reserved", "!*'();:@&=+$,/?#[]"), ("unreserved", "-_.~AZaz09"), ("empty", ""),
        ("\u00fcml\u00e4ut", "\u20ac \u1234"),
    ], [], "", ""),
    ("query in the url", "GET", "https://example.amazonaws.com/?b=2&a=1&a=0", [], [], "", ""),
    ("non-ASCII path", "GET", "https://example.amazonaws.com/\u1234/caf\u00e9", [], [], "", ""),
    ("dot segments and slashes", "GET", "https://example.amazonaws.com/a/./b/../c//d/", [], [],
     "", ""),
    ("encoded path", "GET", "https://example.amazonaws.com/a%20b/c", [], [], "", ""),
    ("header values trimmed", "POST", "https://example.amazonaws.com/", [], [
        ["My-Header1", "  value1  "], ["My-Header2", "\"a   b   c\""],
        ["my-header3", "tab\tand\t\tspaces   inside"],
    ], "x", ""),
    ("repeated and mixed-case headers", "POST", "https://example.amazonaws.com/", [], [
        ["X-Custom", "one"], ["x-custom", "two"], ["ZED", "z"], ["alpha", "A"],
    ], "body", ""),
    ("non-ASCII header value and body", "POST", "https://example.amazonaws.com/", [], [
        ["X-Note", "caf\u00e9 \u20ac"],
    ], '{"name":"\u00e9t\u00e9 \U0001f600"}', TOKEN),
    ("unsigned headers", "POST", "https://example.amazonaws.com/", [], [
        ["User-Agent", "pksk"], ["Expect", "100-continue"], ["Connection", "keep-alive"],
        ["X-Amzn-Trace-Id", "Root=1"],
    ], "{}", ""),
    ("given content hash", "PUT", "https://example.amazonaws.com/o", [], [
        ["X-Amz-Content-SHA256", "UNSIGNED-PAYLOAD"],
    ], "ignored", ""),
    ("host header given", "POST", "https://example.amazonaws.com/", [], [
        ["Host", "other.example.com"],
    ], "{}", ""),
    ("old signature replaced", "POST", "https://example.amazonaws.com/", [], [
        ["Authorization", "AWS4-HMAC-SHA256 stale"], ["X-Amz-Date", "20000101T000000Z"],
    ], "{}", TOKEN),
]


def botocore_headers(method, url, query, headers, body, token):
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    request = AWSRequest(method=method, url=url, data=body.encode("utf-8"),
                         params=list(query))
    for name, value in headers:
        request.headers[name] = value
    region = "eu-west-1" if "eu-west-1" in url else "us-east-1"
    service = "dynamodb" if "Content-Type" in [h[0] for h in headers] else "service"
    with mock.patch("botocore.auth.get_current_datetime", return_value=TIMESTAMP):
        SigV4Auth(Credentials(KEY_ID, SECRET, token or None), service, region).add_auth(request)
    return [[name, value] for name, value in request.headers.items()], region, service


def check_signing(signer):
    inputs, expected = [], []
    for name, method, url, query, headers, body, token in CASES:
        want, region, service = botocore_headers(method, url, query, headers, body, token)
        expected.append(want)
        inputs.append({
            "method": method, "url": url, "query": [list(p) for p in query],
            "headers": headers, "body": body, "session_token": token,
            "access_key_id": KEY_ID, "secret_access_key": SECRET, "region": region,
            "service": service, "timestamp": TIMESTAMP.strftime("%Y%m%dT%H%M%SZ"),
        })
    result = subprocess.run([signer, "sign"], input=json.dumps(inputs).encode("utf-8"),
                            capture_output=True, check=True)
    got = json.loads(result.stdout)
    failures = 0
    for (name, *_), want, have in zip(CASES, expected, got):
        key = lambda h: h[0].lower()
        if sorted(want, key=key) != sorted(have, key=key):
            failures += 1
            print(f"FAIL sign: {name}\n  botocore: {want}\n  pksk:     {have}")
    print(f"signing: {len(CASES) - failures}/{len(CASES)} requests signed alike")
    return failures


CREDENTIALS_FILE = """# a comment
[default]
aws_access_key_id = AKIDDEFAULT
aws_secret_access_key = secretdefault

[dev]
AWS_ACCESS_KEY_ID: AKIDDEV
  ; an indented comment
aws_secret_access_key=secret/dev+key
aws_session_token =   tokendev

[legacy]
aws_access_key_id = AKIDLEGACY
aws_secret_access_key = secretlegacy
aws_security_token = tokenlegacy

[half]
aws_access_key_id = AKIDHALF
"""

CONFIG_FILE = """[default]
region = eu-central-1

[profile dev]
region = ap-south-1
s3 =
  addressing_style = path

[profile configured]
aws_access_key_id = AKIDCONFIG
aws_secret_access_key = secretconfig
region = us-west-2
"""

ENV_KEYS = {"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "secretenv"}

# (name, environment, files written (credentials, config), explicit profile)
SCENARIOS = [
    ("environment keys", ENV_KEYS, (None, None), ""),
    ("environment keys and token", {**ENV_KEYS, "AWS_SESSION_TOKEN": "tokenenv"},
     (None, None), ""),
    ("environment over the files", ENV_KEYS, (CREDENTIALS_FILE, CONFIG_FILE), ""),
    ("default profile", {}, (CREDENTIALS_FILE, CONFIG_FILE), ""),
    ("AWS_PROFILE", {"AWS_PROFILE": "dev"}, (CREDENTIALS_FILE, CONFIG_FILE), ""),
    ("AWS_DEFAULT_PROFILE over AWS_PROFILE",
     {"AWS_PROFILE": "dev", "AWS_DEFAULT_PROFILE": "legacy"}, (CREDENTIALS_FILE, CONFIG_FILE),
     ""),
    ("aws_security_token", {"AWS_PROFILE": "legacy"}, (CREDENTIALS_FILE, CONFIG_FILE), ""),
    ("keys in the config file", {"AWS_PROFILE": "configured"}, (CREDENTIALS_FILE, CONFIG_FILE),
     ""),
    ("a named profile ignores the environment", ENV_KEYS, (CREDENTIALS_FILE, CONFIG_FILE), "dev"),
    ("AWS_DEFAULT_REGION over the config file", {"AWS_DEFAULT_REGION": "sa-east-1"},
     (CREDENTIALS_FILE, CONFIG_FILE), ""),
    ("files elsewhere", {"AWS_SHARED_CREDENTIALS_FILE": "{tmp}/elsewhere/creds",
                         "AWS_CONFIG_FILE": "{tmp}/elsewhere/conf", "AWS_PROFILE": "dev"},
     ("elsewhere", "elsewhere"), ""),
    ("nothing anywhere", {}, (None, None), ""),
    ("half the keys in the environment", {"AWS_ACCESS_KEY_ID": "AKIDENV"}, (None, None), ""),
    ("half the keys in a profile", {"AWS_PROFILE": "half"}, (CREDENTIALS_FILE, None), ""),
]


def botocore_resolve(profile):
    """Runs in a child process whose environment is the scenario's."""
    import botocore.exceptions
    import botocore.session

    session = botocore.session.Session(profile=profile or None)
    out = {}
    try:
        credentials = session.get_credentials()
        if credentials is None:
            out["error"] = "none"
        else:
            frozen = credentials.get_frozen_credentials()
            out.update(access_key_id=frozen.access_key, secret_access_key=frozen.secret_key,
                       session_token=frozen.token or "")
    except botocore.exceptions.BotoCoreError as e:
        out["error"] = str(e)
    region = session.get_config_variable("region")
    if region:
        out["region"] = region
    else:
        out["region_error"] = "none"
    print(json.dumps(out))


def write_files(tmp, files):
    credentials, config = files
    aws = os.path.join(tmp, ".aws")
    os.makedirs(aws, exist_ok=True)
    if credentials == "elsewhere":
        os.makedirs(os.path.join(tmp, "elsewhere"), exist_ok=True)
        with open(os.path.join(tmp, "elsewhere", "creds"), "w") as f:
            f.write(CREDENTIALS_FILE)
        with open(os.path.join(tmp, "elsewhere", "conf"), "w") as f:
            f.write(CONFIG_FILE)
        return
    if credentials:
        with open(os.path.join(aws, "credentials"), "w") as f:
            f.write(credentials)
    if config:
        with open(os.path.join(aws, "config"), "w") as f:
            f.write(config)


def same_outcome(want, have):
    if ("error" in want) != ("error" in have):
        return False
    if "error" not in want:
        for field in ("access_key_id", "secret_access_key", "session_token"):
            if want[field] != have[field]:
                return False
    return want.get("region") == have.get("region")


def check_resolution(signer):
    failures = 0
    for name, variables, files, profile in SCENARIOS:
        with tempfile.TemporaryDirectory() as tmp:
            write_files(tmp, files)
            env = {"HOME": tmp, "PATH": os.environ.get("PATH", ""),
                   "AWS_EC2_METADATA_DISABLED": "true"}
            env.update({k: v.replace("{tmp}", tmp) for k, v in variables.items()})
            want = json.loads(subprocess.run(
                [sys.executable, __file__, "--botocore-resolve", profile], env=env,
                capture_output=True, check=True).stdout)
            have = json.loads(subprocess.run([signer, "resolve", profile], env=env,
                                             capture_output=True, check=True).stdout)
        if not same_outcome(want, have):
            failures += 1
            print(f"FAIL resolve: {name}\n  botocore: {want}\n  pksk:     {have}")
        elif "error" in have and "pksk::dynamodb" not in have["error"]:
            failures += 1
            print(f"FAIL resolve: {name}: the error does not say where it came from: {have}")
    print(f"credentials: {len(SCENARIOS) - failures}/{len(SCENARIOS)} environments resolved alike")
    return failures


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--botocore-resolve":
        botocore_resolve(sys.argv[2] if len(sys.argv) > 2 else "")
        return 0
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    return 1 if check_signing(sys.argv[1]) + check_resolution(sys.argv[1]) else 0


if __name__ == "__main__":
    sys.exit(main())
