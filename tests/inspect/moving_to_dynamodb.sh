#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# docs/dynamodb.md's "Moving to DynamoDB", run as written: the lines between its moving-to-dynamodb
# markers, in a directory laid out as build/example is (the main example's shop.db, its
# DynamoDB twin under examples/, DynamoDB Local's endpoint in ddb/endpoint), with pksk-inspect
# and the venv's AWS CLI on PATH. Then what they did: the AWS CLI's scan counts the file's items
# and reads one with its attributes' types, and the example prints on DynamoDB what it printed
# on the file.
#   moving_to_dynamodb.sh <dynamodb.md> <pksk-inspect> <customer_orders> <customer_orders_dynamodb>
#                         <expected output> <DynamoDB Local's endpoint file> <venv bin> <work dir>
set -euo pipefail
guide=$1 inspect=$2 example=$3 example_dynamodb=$4 expected=$5 endpoint_file=$6 venv=$7 work=$8
fail() { echo "moving_to_dynamodb.sh: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/ddb" "$work/examples" "$work/bin"
cd "$work"
cp "$endpoint_file" ddb/endpoint
ln -s "$example_dynamodb" examples/customer_orders_dynamodb
ln -s "$inspect" bin/pksk-inspect
ln -s "$venv/aws" bin/aws
"$example" shop.db >/dev/null

sed -n '/^<!-- moving-to-dynamodb: begin -->$/,/^<!-- moving-to-dynamodb: end -->$/p' "$guide" |
  sed '1,2d;$d' | sed '$d' >commands.sh
grep -q '^pksk-inspect copy ' commands.sh || fail "no commands found in $guide"
echo "--- the page's commands:"
cat commands.sh
PATH="$work/bin:$PATH" bash -euo pipefail commands.sh >out.txt 2>err.txt ||
  fail "the page's commands failed: $(cat err.txt)"
cat err.txt

items=$("$inspect" shop.db | sed -n 's/^table shop .*: \([0-9]*\) items.*/\1/p')
grep -q "^copied $items items ([0-9]* bytes) from shop.db to dynamodb://shop?endpoint=" err.txt ||
  fail "copy: $(cat err.txt)"
grep -q "^verified: $items items in 2 collections, the same in shop.db and dynamodb://shop" \
  out.txt || fail "verify: $(cat out.txt)"
"$venv/python" - "$items" <<'PY'
import json, sys
scan = json.load(open("scan.json"))
items = int(sys.argv[1])
assert scan["Count"] == items, f"aws dynamodb scan counts {scan['Count']}, the file {items}"
by_key = {(i["pk"]["S"], i["sk"]["S"]): i for i in scan["Items"]}
ada = by_key[("CUSTOMER#123", "A")]
assert ada == {"pk": {"S": "CUSTOMER#123"}, "sk": {"S": "A"}, "type": {"S": "Customer"},
               "id": {"S": "123"}, "name": {"S": "Ada Lovelace"},
               "email": {"S": "ada@example.com"}}, ada
order = next(i for k, i in by_key.items() if k[1].startswith("#ORDER#") and i["items"]["L"])
assert set(order["total"]) == {"N"} and set(order["items"]) == {"L"}, order
assert set(order["items"]["L"][0]) == {"M"}, order
print(f"aws dynamodb scan: {items} items, as written")
PY
# What the example printed on DynamoDB, after the lines of the commands before it.
tail -n "$(wc -l <"$expected")" out.txt | diff - "$expected" ||
  fail "the example on DynamoDB printed something else"
echo "the example on DynamoDB printed its expected output"
