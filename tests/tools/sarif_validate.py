#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Validates SARIF files against the OASIS 2.1.0 schema: sarif_validate.py SCHEMA FILE..."""
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1]))
    validator = jsonschema.validators.validator_for(schema)(schema)
    bad = 0
    for path in sys.argv[2:]:
        doc = json.load(open(path))
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:5]:
            print("%s: %s at /%s" % (path, e.message, "/".join(map(str, e.path))))
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
