#!/usr/bin/env python3
"""Validate the service's OpenAPI description with a standard validator.

    python3 -m pip install -r tests/python/requirements.txt
    python3 tests/python/check_openapi.py openapi.json

FILE is `GET /v1/openapi.json` as the service serves it: the end-to-end test
`openapi_passes_a_standard_validator` (tests/e2e/hygiene.rs) starts the real service,
saves its document and runs this script on it. The document must say it is OpenAPI 3.1 and
pass openapi-spec-validator's 3.1 validator (the 3.1 meta-schema, resolvable references,
unique operation ids, path parameters declared, ...). Prints every problem, then one line
"N passed, M failed"; exits 1 on any problem.
"""

import json
import sys

from openapi_spec_validator import OpenAPIV31SpecValidator


def main(argv):
    if len(argv) != 2:
        print("usage: check_openapi.py FILE")
        print("0 passed, 1 failed")
        return 1
    with open(argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    version = doc.get("openapi") if isinstance(doc, dict) else None
    if not (isinstance(version, str) and version.startswith("3.1.")):
        print("FAIL the document says openapi %r, not 3.1.x" % (version,))
        print("0 passed, 1 failed")
        return 1
    errors = list(OpenAPIV31SpecValidator(doc).iter_errors())
    for e in errors:
        where = "/".join(str(p) for p in getattr(e, "absolute_path", []) or [])
        print("FAIL %s%s" % ("at %s: " % where if where else "", e.message))
    print("%d passed, %d failed" % (0 if errors else 1, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
