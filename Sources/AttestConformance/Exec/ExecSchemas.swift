/// JSON Schemas (draft 2020-12) of the exec contract's two documents, written to vectors/ by `vectors`.
public enum ExecSchemas {
    public static let suite = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "attest-harness-exec-suite/1",
      "title": "attest-harness exec suite (stdin of an exec: verifier)",
      "type": "object",
      "required": ["format", "profile", "cases"],
      "additionalProperties": false,
      "properties": {
        "format": {"const": "attest-harness-exec-suite/1"},
        "profile": {
          "type": "object",
          "required": ["name", "rules", "parameters"],
          "additionalProperties": false,
          "properties": {
            "name": {"type": "string"},
            "rules": {"type": "array", "items": {"type": "string"}},
            "parameters": {"type": "object", "additionalProperties": {"type": "string"}}
          }
        },
        "cases": {
          "type": "array",
          "items": {
            "type": "object",
            "required": ["id", "family", "context", "steps"],
            "additionalProperties": false,
            "properties": {
              "id": {"type": "string"},
              "family": {"type": "string"},
              "context": {
                "type": "object",
                "required": ["time", "trustAnchors", "parameters"],
                "additionalProperties": false,
                "properties": {
                  "time": {"type": "string", "format": "date-time"},
                  "trustAnchors": {"type": "array", "items": {"type": "string"}},
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
                    "time": {"type": "string", "format": "date-time"}
                  }
                }
              }
            }
          }
        }
      }
    }

    """#

    public static let results = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "attest-harness-exec-results/1",
      "title": "attest-harness exec results (stdout of an exec: verifier)",
      "type": "object",
      "required": ["format", "harness", "results"],
      "additionalProperties": false,
      "properties": {
        "format": {"const": "attest-harness-exec-results/1"},
        "harness": {"type": "string"},
        "results": {
          "type": "array",
          "items": {
            "type": "object",
            "required": ["id", "verdicts"],
            "additionalProperties": false,
            "properties": {
              "id": {"type": "string"},
              "verdicts": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": ["outcome"],
                  "additionalProperties": false,
                  "properties": {
                    "outcome": {"enum": ["accept", "reject", "unsupported", "crash"]},
                    "reason": {"type": "string"},
                    "rule": {"type": "string"},
                    "status": {"type": "string"}
                  }
                }
              }
            }
          }
        }
      }
    }

    """#
}
