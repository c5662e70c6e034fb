/// The JSON Schema (draft 2020-12) of `VectorSuite` files, written beside them as `vectors/schema.json`.
public enum VectorSchema {
    public static let json = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "attest-harness-vectors/1",
      "title": "attest-harness vector suite",
      "description": "One evidence family's cases. Run each case in a fresh verifier session: configure it from context, submit the steps in order, and compare each verdict with expected[profile][step]. Inputs are base64 byte strings; their meaning per step kind is in stepKinds.",
      "type": "object",
      "required": ["format", "family", "seed", "stepKinds", "rules", "profiles", "numberOfCases", "cases"],
      "additionalProperties": false,
      "properties": {
        "format": {"const": "attest-harness-vectors/1"},
        "family": {"type": "string"},
        "seed": {"type": "integer", "minimum": 0},
        "stepKinds": {"type": "object", "additionalProperties": {"type": "string"}},
        "rules": {"type": "array", "items": {"$ref": "#/$defs/rule"}},
        "profiles": {"type": "array", "items": {"$ref": "#/$defs/profile"}},
        "numberOfCases": {"type": "integer", "minimum": 0},
        "cases": {"type": "array", "items": {"$ref": "#/$defs/case"}}
      },
      "$defs": {
        "ruleId": {"type": "string", "pattern": "^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$"},
        "outcome": {"enum": ["accept", "reject", "either"], "description": "either: the specification leaves the verdict to the relying party, so accepting and refusing both conform (recorded, never a finding)"},
        "rule": {
          "type": "object",
          "required": ["id", "statement", "level", "source", "bugClass", "references"],
          "additionalProperties": false,
          "properties": {
            "id": {"$ref": "#/$defs/ruleId"},
            "statement": {"type": "string"},
            "level": {"enum": ["MUST", "SHOULD", "POLICY"]},
            "quote": {"type": "string"},
            "ownerVerifier": {"type": "string"},
            "source": {"type": "string"},
            "bugClass": {"enum": ["binding", "trust", "replay", "policy", "parsing", "signature"]},
            "references": {"type": "array", "items": {"type": "string"}},
            "since": {"type": "string", "description": "the edition of its source since which the rule holds (WebAuthn Level 2, WebAuthn Level 3); absent for a source of one edition"}
          }
        },
        "profile": {
          "type": "object",
          "required": ["name", "description", "families", "rules", "parameters"],
          "additionalProperties": false,
          "properties": {
            "name": {"type": "string"},
            "description": {"type": "string"},
            "families": {"type": "array", "items": {"type": "string"}},
            "rules": {"type": "array", "items": {"$ref": "#/$defs/ruleId"}},
            "parameters": {"type": "object", "additionalProperties": {"type": "string"}},
            "leftToRelyingParty": {"type": "array", "items": {"$ref": "#/$defs/ruleId"}, "description": "rules whose verdict this profile leaves to the relying party: a step breaking one expects either verdict"}
          }
        },
        "case": {
          "type": "object",
          "required": ["id", "description", "importance", "context", "steps", "expected"],
          "dependentRequired": {"rule": ["control"]},
          "additionalProperties": false,
          "properties": {
            "id": {"type": "string", "pattern": "^[a-z][A-Za-z0-9.-]*$"},
            "control": {"type": "string", "pattern": "^[a-z][A-Za-z0-9.-]*$", "description": "A negative case's control: the id of the valid case in this file with the same baseline and no mutation. A refusal counts as a pass only when the verifier accepted the control in the same run."},
            "rule": {"$ref": "#/$defs/ruleId"},
            "description": {"type": "string"},
            "importance": {"enum": ["critical", "high", "medium", "low"]},
            "anchors": {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": "^(fido2-server|state-of-passkeys):"}},
            "references": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}, "description": "Public bugs, advisories and library faults the case would have caught (CVE, issue or pull request, a library's code at a version)."},
            "context": {
              "type": "object",
              "required": ["time", "trustAnchors", "parameters"],
              "additionalProperties": false,
              "properties": {
                "time": {"type": "string", "format": "date-time"},
                "trustAnchors": {"type": "array", "items": {"type": "string", "pattern": "^-----BEGIN CERTIFICATE-----"}},
                "parameters": {"type": "object", "additionalProperties": {"type": "string"}}
              }
            },
            "steps": {
              "type": "array",
              "minItems": 1,
              "items": {
                "type": "object",
                "required": ["kind", "inputs"],
                "additionalProperties": false,
                "properties": {
                  "kind": {"type": "string"},
                  "inputs": {"type": "object", "additionalProperties": {"type": "string", "contentEncoding": "base64"}},
                  "breaks": {"$ref": "#/$defs/ruleId"},
                  "time": {"type": "string", "format": "date-time"},
                  "expectedStatus": {"type": "string"},
                  "either": {"const": true},
                  "unreadable": {"const": true, "description": "nothing can be read past what this step breaks: it is refused under every profile, also one that does not enforce breaks"},
                  "repeats": {
                    "type": "object", "required": ["as", "step"], "additionalProperties": false,
                    "description": "this step goes over an earlier step's ceremony again: replay (the earlier step's inputs exactly, its completing request sent again) or answer (a new response to that ceremony, no new options asked for)",
                    "properties": {"as": {"enum": ["replay", "answer"]}, "step": {"type": "integer", "minimum": 0}}
                  }
                }
              }
            },
            "expected": {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/outcome"}}}
          }
        }
      }
    }

    """#
}
