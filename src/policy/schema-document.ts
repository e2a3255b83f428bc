/**
 * The JSON Schema of the policy format, built in one place: the document's
 * shape here, each rule kind's fields from the registry (src/rules/schema.ts).
 * `npm run generate` writes it to schemas/policy.schema.json for editors; a
 * test fails when that file is stale.
 */
import { filteringModeSchema, ruleKindSchemas, ruleSchema } from '../rules/schema.js';

/** Where the schema is published: what an exported file's `yaml-language-server` modeline names, on any machine. */
export const POLICY_SCHEMA_URL = 'https://raw.githubusercontent.com/rampart-dev/rampart/main/schemas/policy.schema.json';

export function buildPolicySchema(): Record<string, unknown> {
  return {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": POLICY_SCHEMA_URL,
  "title": "Rampart policy file",
  "description": "One Rampart policy file: the rules and IP lists of one client for one or more applications. See docs/policy-reference.md.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "version",
    "client",
    "application"
  ],
  "properties": {
    "version": {
      "description": "Version of the policy format. Always 1.",
      "const": 1,
      "examples": [
        1
      ]
    },
    "client": {
      "description": "The account id (the API's `clientid`), a positive integer.",
      "type": "integer",
      "minimum": 1,
      "maximum": 9007199254740991,
      "examples": [
        10042
      ],
      "x-message": "must be a positive integer (the account id)"
    },
    "application": {
      "description": "The application this file applies to: an application id, a list of ids (each rule becomes one rule per application), or `all` for account-wide (IP-list pool 0, no instance condition).",
      "anyOf": [
        {
          "$ref": "#/$defs/applicationId"
        },
        {
          "const": "all",
          "description": "Every application of the account."
        },
        {
          "type": "array",
          "minItems": 1,
          "uniqueItems": true,
          "items": {
            "$ref": "#/$defs/applicationId"
          }
        }
      ],
      "examples": [
        7,
        [
          7,
          8
        ],
        "all"
      ],
      "x-message": "must be a positive integer application id, a list of distinct ids, or \"all\""
    },
    "description": {
      "description": "Free text for people; not sent to the API.",
      "type": "string",
      "examples": [
        "Shop API"
      ]
    },
    "mode": {
      "description": "Shorthand for a `mode` rule without `when` conditions: the filtering mode of the application(s).",
      "$ref": "#/$defs/filteringMode"
    },
    "rules": {
      "description": "Rules (the API's hints): virtual patches, regex attack indicators, filtering modes, false-positive tuning, masking, parser switches, limits. `type` says which kind.",
      "type": "array",
      "items": {
        "$ref": "#/$defs/rule"
      },
      "examples": [
        [
          {
            "name": "block-legacy-admin",
            "type": "vpatch",
            "point": [
              [
                "header",
                "HOST"
              ]
            ]
          }
        ]
      ]
    },
    "ip_api": {
      "description": "The service's IP-list API this account's lists are read and written through: `v4` (`/v4/ip_rules`) or `groups` (`/v1/blocklist`). Every file of the account that names it must agree; it overrides the default of `--ip-api`, and must agree with `--ip-api` when that is given.",
      "enum": ["v4", "groups"],
      "examples": ["groups"]
    },
    "ip_lists": {
      "description": "IP-list entries by list: `deny` (the API's black list), `allow` (white), `gray`.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "deny": {
          "description": "Denylist (the API's `black` list): requests from these sources are blocked.",
          "$ref": "#/$defs/ipList"
        },
        "allow": {
          "description": "Allowlist (the API's `white` list): requests from these sources are never blocked.",
          "$ref": "#/$defs/ipList"
        },
        "gray": {
          "description": "Graylist (`gray`): requests from these sources are blocked only when they carry an attack.",
          "$ref": "#/$defs/ipList"
        }
      },
      "examples": [
        {
          "deny": [
            {
              "ips": [
                "203.0.113.0/24"
              ],
              "reason": "scanner farm"
            }
          ]
        }
      ]
    }
  },
  "$defs": {
    "applicationId": {
      "description": "An application id (the `instance` condition value, the IP-list pool).",
      "type": "integer",
      "minimum": 1,
      "maximum": 9007199254740991,
      "examples": [
        7
      ]
    },
    "point": {
      "description": "A point element: `[name]` or `[name, argument]`, e.g. `[header, HOST]`, `[path, 0]`, `[get, q]`, `[uri]`.",
      "type": "array",
      "minItems": 1,
      "maxItems": 2,
      "prefixItems": [
        {
          "description": "The element name.",
          "type": "string",
          "examples": [
            "header",
            "path",
            "get",
            "uri",
            "method",
            "post",
            "json_doc",
            "hash"
          ]
        },
        {
          "description": "The argument: a header name, a query key, a path index (integer from 0), ...",
          "type": [
            "string",
            "integer"
          ],
          "examples": [
            "HOST",
            0,
            "q"
          ]
        }
      ],
      "examples": [
        [
          "header",
          "HOST"
        ],
        [
          "path",
          0
        ],
        [
          "get",
          "q"
        ],
        [
          "uri"
        ]
      ]
    },
    "condition": {
      "description": "A condition: a `point` and exactly one of `equal`, `iequal`, `regex` or `absent: true`; or a `url` that stands for the service's conditions of that URL.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "url": {
          "description": "A URL the rule applies to, host optional: `shop.example.com/api/v1/search.json`, `/login`, `/api/**`, `/img/*.*`. It expands to the host, path, `action_name` and `action_ext` conditions the service uses (see the policy reference).",
          "type": "string",
          "minLength": 1,
          "examples": [
            "shop.example.com/api/v1/search.json",
            "/login",
            "/api/**"
          ]
        },
        "point": {
          "description": "One of `[path, N]`, `[header, NAME]`, `[get, KEY]`, `[method]`, `[scheme]`, `[proto]`, `[uri]`, `[action_name]`, `[action_ext]`.",
          "$ref": "#/$defs/point"
        },
        "equal": {
          "description": "The value equals this string exactly.",
          "type": "string",
          "examples": [
            "admin"
          ]
        },
        "iequal": {
          "description": "The value equals this string, ignoring case.",
          "type": "string",
          "examples": [
            "Example.com"
          ]
        },
        "regex": {
          "description": "The value matches this regular expression.",
          "type": "string",
          "minLength": 1,
          "examples": [
            "^/api/v[0-9]+/"
          ]
        },
        "absent": {
          "description": "The point is absent from the request. Only `true` is meaningful.",
          "const": true,
          "examples": [
            true
          ]
        }
      },
      "examples": [
        {
          "point": [
            "path",
            0
          ],
          "equal": "admin"
        },
        {
          "point": [
            "header",
            "X-DEBUG"
          ],
          "absent": true
        }
      ]
    },
    "ipList": {
      "description": "Entries of one IP list.",
      "type": "array",
      "items": {
        "$ref": "#/$defs/ipEntry"
      },
      "examples": [
        [
          {
            "ips": [
              "203.0.113.0/24"
            ],
            "reason": "scanner farm"
          },
          {
            "countries": [
              "KP"
            ]
          }
        ]
      ]
    },
    "ipEntry": {
      "description": "One IP-list entry: exactly one of `ips`, `countries`, `proxies`, `datacenters`, with an optional `reason` and `expires`.",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "ips": {
          "description": "IPv4/IPv6 addresses or CIDR subnets (at most /12 for IPv4, /32 for IPv6).",
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "examples": [
              "203.0.113.0/24",
              "198.51.100.7",
              "2001:db8::/48"
            ]
          },
          "examples": [
            [
              "203.0.113.0/24",
              "198.51.100.7"
            ]
          ]
        },
        "countries": {
          "description": "ISO-3166 alpha-2 country codes.",
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "examples": [
              "KP",
              "DE",
              "US"
            ]
          },
          "examples": [
            [
              "KP"
            ]
          ]
        },
        "proxies": {
          "description": "Proxy service types: `VPN`, `SES`, `PUB`, `WEB`, `TOR`, `DCH` (data-center hosting), `MIP` (mobile IPs).",
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "examples": [
              "VPN",
              "SES",
              "PUB",
              "WEB",
              "TOR",
              "DCH",
              "MIP"
            ]
          },
          "examples": [
            [
              "TOR"
            ]
          ]
        },
        "datacenters": {
          "description": "Datacenter sources: rackspace, tencent, plusserver, ovh, oracle, linode, ibm, huawei, hetzner, gce, azure, aws, alibaba.",
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "examples": [
              "rackspace",
              "tencent",
              "plusserver",
              "ovh",
              "oracle",
              "linode",
              "ibm",
              "huawei",
              "hetzner",
              "gce",
              "azure",
              "aws",
              "alibaba"
            ]
          },
          "examples": [
            [
              "hetzner"
            ]
          ]
        },
        "reason": {
          "description": "Why the sources are listed (Rampart appends its owner mark). Must not be empty.",
          "type": "string",
          "minLength": 1,
          "examples": [
            "scanner farm"
          ]
        },
        "expires": {
          "description": "When the entry is removed: RFC 3339 (`2027-01-31T00:00:00Z`), a date (`2027-01-31`, UTC midnight) or `never` (the default). An entry already expired is not created.",
          "type": "string",
          "examples": [
            "2027-01-31T00:00:00Z",
            "2027-01-31",
            "never"
          ]
        }
      },
      "examples": [
        {
          "ips": [
            "203.0.113.0/24"
          ],
          "reason": "scanner farm",
          "expires": "2027-01-31"
        }
      ]
    },
    "rule": ruleSchema(),
    ...ruleKindSchemas(),
    "filteringMode": filteringModeSchema()
  }
};
}

/** The schema as schemas/policy.schema.json holds it. */
export function schemaText(): string {
  return `${JSON.stringify(buildPolicySchema(), null, 2)}\n`;
}
