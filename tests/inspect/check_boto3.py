#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Holds pksk-inspect's DynamoDB JSON against boto3, the AWS SDK for Python, on DynamoDB Local.

    check_boto3.py <pksk-inspect executable> <file holding DynamoDB Local's endpoint> <work dir>

boto3 writes items of every type pksk stores (S, N, B, BOOL, NULL, L, M, SS) into a table;
pksk-inspect exports it, and every line must be the item as boto3 reads it. The export is
then imported into a new table, where boto3 must read the same items, and into an SQLite file
whose own export, imported back into DynamoDB, must read the same again except that a string
set comes back as a list (a plain JSON body cannot tell them apart). Needs boto3 (in
scripts/python-venv.sh's venv, with moto). Exits non-zero on a difference, printing it.
"""

import base64
import json
import os
import subprocess
import sys

import boto3


def main():
    program, endpoint_file, work = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(endpoint_file, encoding="utf-8") as f:
        endpoint = f.readline().strip()
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, AWS_ACCESS_KEY_ID="pksk", AWS_SECRET_ACCESS_KEY="inspect")
    client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                          aws_access_key_id="pksk", aws_secret_access_key="inspect")

    def address(table, create=False):
        return (f"dynamodb://{table}?endpoint={endpoint}&region=us-east-1"
                + ("&create=1" if create else ""))

    def inspect(*args):
        done = subprocess.run([program, *args], capture_output=True, text=True, env=env,
                              check=False)
        if done.returncode != 0:
            sys.exit(f"pksk-inspect {' '.join(args)} failed ({done.returncode}): {done.stderr}")
        return done.stdout

    def as_json(value):
        """boto3's item with binary as the base64 text DynamoDB JSON holds, sets sorted."""
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if k == "B" and isinstance(v, bytes):
                    out[k] = base64.b64encode(v).decode()
                elif k == "SS":
                    out[k] = sorted(v)
                else:
                    out[k] = as_json(v)
            return out
        if isinstance(value, list):
            return [as_json(v) for v in value]
        return value

    def scan(table):
        items, start = [], {}
        while True:
            page = client.scan(TableName=table, ConsistentRead=True, **start)
            items += [as_json(i) for i in page["Items"]]
            if "LastEvaluatedKey" not in page:
                break
            start = {"ExclusiveStartKey": page["LastEvaluatedKey"]}
        return sorted(items, key=lambda i: (i["pk"]["S"], i["sk"]["S"]))

    def read_export(path):
        with open(path, encoding="utf-8") as f:
            items = [as_json(json.loads(line)["Item"]) for line in f]
        return sorted(items, key=lambda i: (i["pk"]["S"], i["sk"]["S"]))

    def create(table):
        client.create_table(
            TableName=table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                       {"AttributeName": "sk", "KeyType": "RANGE"}])
        client.get_waiter("table_exists").wait(TableName=table)

    source = f"inspect_boto3_{os.getpid()}"
    create(source)
    for i in range(60):
        item = {"pk": {"S": f"P#{i % 7}"}, "sk": {"S": f"S#{i:04}"}, "type": {"S": "Thing"},
                "s": {"S": f"é \"quoted\"\n{i}"}, "n": {"N": f"{i}.25"}, "big": {"N": "1E+30"},
                "b": {"B": bytes([0, 255, i])}, "t": {"BOOL": i % 2 == 0}, "z": {"NULL": True},
                "l": {"L": [{"S": "x"}, {"N": "-1"}, {"M": {"k": {"L": []}}}]},
                "m": {"M": {"a": {"S": ""}, "b": {"M": {}}}},
                "ss": {"SS": [f"v{i}", "a", "z"]}}
        if i % 5 == 0:
            del item["type"]  # an item without a type attribute
        client.put_item(TableName=source, Item=item)
    expected = scan(source)

    failures = []

    def compare(what, got, want):
        if got != want:
            for g, w in zip(got, want):
                if g != w:
                    failures.append(f"{what}: got\n  {g}\nexpected\n  {w}")
                    break
            else:
                failures.append(f"{what}: {len(got)} items, expected {len(want)}")

    exported = os.path.join(work, "source.json")
    inspect(address(source), "--export", exported)
    compare("the export of boto3's items", read_export(exported), expected)

    copy = f"{source}_copy"
    inspect(address(copy, create=True), "--import", exported, "--batch", "9")
    compare("the items imported into DynamoDB, read by boto3", scan(copy), expected)

    db = os.path.join(work, "copy.db")
    if os.path.exists(db):
        os.remove(db)
    inspect(db, "--import", exported, "--table", "things")
    through_sqlite = os.path.join(work, "sqlite.json")
    inspect(db, "--export", through_sqlite)
    back = f"{source}_back"
    inspect(address(back, create=True), "--import", through_sqlite)
    for item in expected:
        item["ss"] = {"L": [{"S": s} for s in item["ss"]["SS"]]}
    compare("the items through SQLite, read by boto3", scan(back), expected)

    for table in (source, copy, back):
        client.delete_table(TableName=table)
    if failures:
        sys.exit("\n".join(failures))
    print("pksk-inspect's DynamoDB JSON is boto3's")


if __name__ == "__main__":
    main()
