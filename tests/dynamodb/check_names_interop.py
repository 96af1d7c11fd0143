#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Holds pksk's stored attribute names against boto3, the AWS SDK for Python, on DynamoDB Local.

    check_names_interop.py <names_interop executable> <file holding DynamoDB Local's endpoint>

pksk writes seed 004's table (PK, SK, Type; CustomerId, OrderId, Total, ... in PascalCase) and
boto3 reads it back: every item must hold exactly the attribute names and types a DynamoDB user
expects. Then boto3 writes a customer and its orders in that layout, one with its ids only in
its keys and one with no Type, and pksk must read them typed. The same both ways for a table
keyed by its partition key alone, whose items hold binary, number and binary sets and a NULL,
and for a table whose sort key is a number (RANGE N), which boto3 and pksk both write. Last,
boto3 writes enrolments whose term, grade and credits are in their GSI keys alone,
and pksk reads them whole through a KEYS_ONLY index (all but the unprojected advisor) and from
the table. Needs boto3 (in scripts/python-venv.sh's venv, with moto). Exits non-zero on a
difference, printing it.
"""

import os
import subprocess
import sys

import boto3


def main():
    program, endpoint_file = sys.argv[1], sys.argv[2]
    with open(endpoint_file, encoding="utf-8") as f:
        endpoint = f.readline().strip()
    table = f"names_interop_{os.getpid()}"
    client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                          aws_access_key_id="pksk", aws_secret_access_key="interop")
    failures = []

    def run(command, name=table):
        done = subprocess.run([program, command, endpoint, name], capture_output=True,
                              text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"names_interop {command} failed ({done.returncode}): {done.stderr}")
        return done.stdout

    # pksk writes; boto3 reads exactly what a DynamoDB user expects.
    run("write")
    expected = {
        ("CUSTOMER#123", "A"): {
            "PK": {"S": "CUSTOMER#123"}, "SK": {"S": "A"}, "Type": {"S": "Customer"},
            "CustomerId": {"S": "123"}, "FullName": {"S": "Ada Lovelace"},
            "Email": {"S": "ada@example.com"}},
        ("CUSTOMER#123", "#ORDER#2020-12-06"): {
            "PK": {"S": "CUSTOMER#123"}, "SK": {"S": "#ORDER#2020-12-06"},
            "Type": {"S": "Order"}, "CustomerId": {"S": "123"}, "OrderId": {"S": "2020-12-06"},
            "Status": {"S": "shipped"}, "Total": {"N": "59.98"}, "Skus": {"L": []},
            "Quantities": {"M": {}}, "ItemCount": {"N": "0"}, "Paid": {"BOOL": False},
            "ShipTo": {"M": {"StreetName": {"S": ""}, "ZipCode": {"N": "0"}}}},
        ("CUSTOMER#123", "#ORDER#2020-12-07"): {
            "PK": {"S": "CUSTOMER#123"}, "SK": {"S": "#ORDER#2020-12-07"},
            "Type": {"S": "Order"}, "CustomerId": {"S": "123"}, "OrderId": {"S": "2020-12-07"},
            "Status": {"S": "pending"}, "Total": {"N": "12.5"}, "Gift Note": {"S": "for you"},
            "Labels": {"SS": ["gift", "rush"]}, "Skus": {"L": [{"S": "sku-1"}, {"S": "sku-2"}]},
            "Quantities": {"M": {"sku-1": {"N": "2"}}}, "ItemCount": {"N": "3"},
            "Paid": {"BOOL": True},
            "ShipTo": {"M": {"StreetName": {"S": "Rue de Rivoli"}, "ZipCode": {"N": "75001"}}}},
    }
    for (pk, sk), item in expected.items():
        got = client.get_item(TableName=table, Key={"PK": {"S": pk}, "SK": {"S": sk}},
                              ConsistentRead=True).get("Item")
        if got is not None and "Labels" in got:
            got["Labels"]["SS"] = sorted(got["Labels"]["SS"])
        if got != item:
            failures.append(f"item {pk} / {sk}:\n  expected {item}\n  boto3 read {got}")
    # The collection as seed 004 shows it, newest order first with the customer.
    page = client.query(TableName=table, KeyConditionExpression="PK = :pk",
                        ExpressionAttributeValues={":pk": {"S": "CUSTOMER#123"}},
                        ProjectionExpression="PK, SK, #t, CustomerId, OrderId",
                        ExpressionAttributeNames={"#t": "Type"}, ConsistentRead=True)
    rows = [(i["SK"]["S"], i["Type"]["S"], i["CustomerId"]["S"], i.get("OrderId", {}).get("S"))
            for i in page["Items"]]
    want = [("#ORDER#2020-11-25", "Order", "123", "2020-11-25"),
            ("#ORDER#2020-12-01", "Order", "123", "2020-12-01"),
            ("#ORDER#2020-12-06", "Order", "123", "2020-12-06"),
            ("#ORDER#2020-12-07", "Order", "123", "2020-12-07"),
            ("A", "Customer", "123", None)]
    if rows != want:
        failures.append(f"query of CUSTOMER#123:\n  expected {want}\n  boto3 read {rows}")

    # boto3 writes in that layout; pksk reads typed.
    client.put_item(TableName=table, Item={
        "PK": {"S": "CUSTOMER#456"}, "SK": {"S": "A"}, "Type": {"S": "Customer"},
        "CustomerId": {"S": "456"}, "FullName": {"S": "Grace Hopper"},
        "Email": {"S": "grace@example.com"}})
    client.put_item(TableName=table, Item={
        "PK": {"S": "CUSTOMER#456"}, "SK": {"S": "#ORDER#2021-01-02"}, "Type": {"S": "Order"},
        "CustomerId": {"S": "456"}, "OrderId": {"S": "2021-01-02"}, "Status": {"S": "paid"},
        "Total": {"N": "100.25"}, "Gift Note": {"S": "cheers"}, "Labels": {"SS": ["b", "a"]},
        "Skus": {"L": [{"S": "s1"}]}, "Quantities": {"M": {"s1": {"N": "4"}}},
        "ItemCount": {"N": "4"}, "Paid": {"BOOL": True},
        "ShipTo": {"M": {"StreetName": {"S": "Main St"}, "ZipCode": {"N": "10001"}}},
        "Audit": {"S": "an attribute pksk does not map"}})
    # Absent attributes take their members' defaults.
    client.put_item(TableName=table, Item={
        "PK": {"S": "CUSTOMER#456"}, "SK": {"S": "#ORDER#2021-01-03"}, "Type": {"S": "Order"},
        "CustomerId": {"S": "456"}, "OrderId": {"S": "2021-01-03"}, "Total": {"N": "7"}})
    # Ids only in the keys, as many tools write them: pksk reads them back from PK and SK.
    client.put_item(TableName=table, Item={
        "PK": {"S": "CUSTOMER#456"}, "SK": {"S": "#ORDER#2021-01-04"}, "Type": {"S": "Order"},
        "Status": {"S": "open"}, "Total": {"N": "3.5"}})
    # No Type at all: pksk knows it for an Order by its sort key.
    client.put_item(TableName=table, Item={
        "PK": {"S": "CUSTOMER#456"}, "SK": {"S": "#ORDER#2021-01-05"}, "Status": {"S": "untyped"},
        "Total": {"N": "1"}})
    client.put_item(TableName=table, Item={
        "PK": {"S": "CUSTOMER#456"}, "SK": {"S": "#RETURN#1"}, "Type": {"S": "Return"}})
    read = run("read")
    want_read = (
        "Order 456 2021-01-02 paid 100.25 note=cheers labels=a;b; skus=s1; quantities=s1:4; "
        "items=4 paid=1 ship_to=Main St,10001\n"
        "Order 456 2021-01-03  7 note=- labels= skus= quantities= items=0 paid=0 ship_to=,0\n"
        "Order 456 2021-01-04 open 3.5 note=- labels= skus= quantities= items=0 paid=0 ship_to=,0\n"
        "Order 456 2021-01-05 untyped 1 note=- labels= skus= quantities= items=0 paid=0 "
        "ship_to=,0\n"
        "Customer 456 Grace Hopper grace@example.com\n"
        "unknown 1\n")
    if read != want_read:
        failures.append(f"pksk read of boto3's items:\n  expected {want_read!r}\n  got {read!r}")

    client.delete_table(TableName=table)

    # A table keyed by its partition key alone, with binary, number and binary sets and a NULL:
    # pksk writes, boto3 reads the names and types; boto3 writes, pksk reads typed.
    blobs = f"{table}_blobs"

    run("write_blobs", blobs)
    schema = client.describe_table(TableName=blobs)["Table"]["KeySchema"]
    if schema != [{"AttributeName": "PK", "KeyType": "HASH"}]:
        failures.append(f"key schema of {blobs}: {schema}")
    got = client.get_item(TableName=blobs, Key={"PK": {"S": "BLOB#b1"}},
                          ConsistentRead=True).get("Item")
    if got is not None:
        got["Readings"]["NS"] = sorted(got["Readings"]["NS"], key=float)
        got["Chunks"]["BS"] = sorted(got["Chunks"]["BS"])
    want = {"PK": {"S": "BLOB#b1"}, "Type": {"S": "Blob"}, "Id": {"S": "b1"},
            "Data": {"B": b"\x01\x02\xff"}, "Readings": {"NS": ["-2", "1.5"]},
            "Chunks": {"BS": [b"\x00", b"\x07\x08"]}, "Note": {"NULL": True}}
    if got != want:
        failures.append(f"item BLOB#b1:\n  expected {want}\n  boto3 read {got}")
    client.put_item(TableName=blobs, Item={
        "PK": {"S": "BLOB#b2"}, "Type": {"S": "Blob"}, "Id": {"S": "b2"},
        "Data": {"B": b"\x00\x10\x80"}, "Readings": {"NS": ["3", "-0.5"]},
        "Chunks": {"BS": [b"\xff"]}, "Note": {"S": "from boto3"}})
    # The id only in the key, the note NULL.
    client.put_item(TableName=blobs, Item={
        "PK": {"S": "BLOB#b3"}, "Type": {"S": "Blob"}, "Data": {"B": b""},
        "Note": {"NULL": True}})
    read = run("read_blobs", blobs)
    want_read = ("b2 data=0;16;128; readings=-0.5;3; chunks=255,; note=from boto3\n"
                 "b3 data= readings= chunks= note=-\n")
    if read != want_read:
        failures.append(f"pksk read of boto3's blobs:\n  expected {want_read!r}\n  got {read!r}")
    client.delete_table(TableName=blobs)

    # A table whose sort key is a number: pksk creates it and writes; boto3 sees RANGE N and
    # numbers; boto3 writes events, one with its ids only in its keys and one with no Type;
    # pksk reads them all typed, in numeric order.
    numbers = f"{table}_numbers"

    run("write_numbers", numbers)
    described = client.describe_table(TableName=numbers)["Table"]
    schema = described["KeySchema"]
    types = {a["AttributeName"]: a["AttributeType"] for a in described["AttributeDefinitions"]}
    if schema != [{"AttributeName": "PK", "KeyType": "HASH"},
                  {"AttributeName": "SK", "KeyType": "RANGE"}] or types != {"PK": "S", "SK": "N"}:
        failures.append(f"key schema of {numbers}: {schema} {types}")
    got = client.get_item(TableName=numbers, Key={"PK": {"S": "STREAM#s1"}, "SK": {"N": "42"}},
                          ConsistentRead=True).get("Item")
    want = {"PK": {"S": "STREAM#s1"}, "SK": {"N": "42"}, "Type": {"S": "Event"},
            "Stream": {"S": "s1"}, "Seq": {"N": "42"}, "Kind": {"S": "opened"}}
    if got != want:
        failures.append(f"item STREAM#s1 / 42:\n  expected {want}\n  boto3 read {got}")
    client.put_item(TableName=numbers, Item={
        "PK": {"S": "STREAM#s1"}, "SK": {"N": "5"}, "Type": {"S": "Event"},
        "Kind": {"S": "ids in keys"}})
    client.put_item(TableName=numbers, Item={
        "PK": {"S": "STREAM#s1"}, "SK": {"N": "100"}, "Kind": {"S": "untyped"}})
    client.put_item(TableName=numbers, Item={
        "PK": {"S": "STREAM#s1"}, "SK": {"N": "-30"}, "Type": {"S": "Event"},
        "Stream": {"S": "s1"}, "Seq": {"N": "-30"}, "Kind": {"S": "from boto3"}})
    read = run("read_numbers", numbers)
    want_read = ("s1 -30 from boto3\ns1 -7 created\ns1 5 ids in keys\ns1 42 opened\n"
                 "s1 100 untyped\nbetween 0 and 50: 5 42\n")
    if read != want_read:
        failures.append(f"pksk read of boto3's events:\n  expected {want_read!r}\n  got {read!r}")
    client.delete_table(TableName=numbers)

    # Members only in the GSI keys, as boto3 writes them: read back through a KEYS_ONLY index.
    terms = f"{table}_terms"

    run("create_terms", terms)
    projection = client.describe_table(TableName=terms)["Table"][
        "GlobalSecondaryIndexes"][0]["Projection"]
    if projection != {"ProjectionType": "KEYS_ONLY"}:
        failures.append(f"projection of {terms}'s index: {projection}")
    # Credits -3 and 12 as a sort-key integer: 10 digits, the sign bit flipped.
    client.put_item(TableName=terms, Item={
        "PK": {"S": "COURSE#CS101"}, "SK": {"S": "STUDENT#ada"}, "Type": {"S": "Enrolment"},
        "GSI1PK": {"S": "TERM#2027-spring"}, "GSI1SK": {"S": "GRADE#A#2147483645#ada"},
        "Advisor": {"S": "turing"}})
    client.put_item(TableName=terms, Item={
        "PK": {"S": "COURSE#CS102"}, "SK": {"S": "STUDENT#bob"}, "Type": {"S": "Enrolment"},
        "GSI1PK": {"S": "TERM#2027-spring"}, "GSI1SK": {"S": "GRADE#B#2147483660#bob"},
        "Advisor": {"S": "hopper"}})
    read = run("read_terms", terms)
    want_read = ("lean CS101 ada 2027-spring A -3 advisor=\n"
                 "get CS101 ada 2027-spring A -3 advisor=turing\n"
                 "lean CS102 bob 2027-spring B 12 advisor=\n"
                 "get CS102 bob 2027-spring B 12 advisor=hopper\n")
    if read != want_read:
        failures.append(f"pksk read of boto3's enrolments:\n  expected {want_read!r}\n"
                        f"  got {read!r}")
    client.delete_table(TableName=terms)

    for failure in failures:
        print(failure)
    if failures:
        sys.exit(1)
    print("pksk and boto3 agree on the stored names of seed 004's table")


if __name__ == "__main__":
    main()
