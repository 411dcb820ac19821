// This file is generated from openapi.yaml by scripts/generate.mjs. Do not edit.
import type { Document } from 'openapi-backend';

export const openApiDocument: Document = {
  "openapi": "3.0.3",
  "info": {
    "title": "Audit report collection API",
    "version": "1.0.0",
    "description": "Receives security-audit reports from audit collectors such as Lynis and answers their license checks.\n\nBoth operations take form fields (`application/x-www-form-urlencoded`, as Lynis sends them through curl;\nuploads also accept `multipart/form-data`) and answer `text/plain`.\n\n**Compatibility contract.** The license check answers exactly `Response 100` for a valid key and exactly\n`Response 500` for any other key. Lynis reads only these texts, so they never change.\n\n**Lynis ignores upload statuses.** It prints `DONE` for 200, 400, 401, 413, 429 and 503 alike and never retries,\nso a rejected upload is lost silently on the client side. Check the server's log for rejections.\n\nThe path segment `audit` names the audit tool. The reference server lets operators change it\n(for example to `lynis`); the paths below show the default.\n",
    "license": {
      "name": "MIT",
      "url": "https://opensource.org/licenses/MIT"
    }
  },
  "servers": [
    {
      "url": "https://{host}:{port}",
      "description": "Your collector. The reference server uses a self-signed certificate unless you give it one.",
      "variables": {
        "host": {
          "default": "127.0.0.1",
          "description": "Host name or address of the collector"
        },
        "port": {
          "default": "8443",
          "description": "The reference server's default port"
        }
      }
    }
  ],
  "tags": [
    {
      "name": "audit",
      "description": "What audit collectors call. The `/api/v1/` paths are legacy twins with the same behaviour."
    }
  ],
  "paths": {
    "/api/audit/license/": {
      "post": {
        "operationId": "checkLicense",
        "tags": [
          "audit"
        ],
        "summary": "Check a license key",
        "description": "Tells a collector whether its license key is valid, before it uploads anything.",
        "requestBody": {
          "$ref": "#/components/requestBodies/LicenseCheck"
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/LicenseValid"
          },
          "401": {
            "$ref": "#/components/responses/LicenseInvalid"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          }
        }
      }
    },
    "/api/v1/audit/license/": {
      "post": {
        "operationId": "checkLicenseLegacy",
        "tags": [
          "audit"
        ],
        "deprecated": true,
        "summary": "Check a license key (legacy path)",
        "description": "Same behaviour as `POST /api/audit/license/`.",
        "requestBody": {
          "$ref": "#/components/requestBodies/LicenseCheck"
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/LicenseValid"
          },
          "401": {
            "$ref": "#/components/responses/LicenseInvalid"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          }
        }
      }
    },
    "/api/audit/upload/": {
      "post": {
        "operationId": "uploadReport",
        "tags": [
          "audit"
        ],
        "summary": "Upload an audit report",
        "description": "Stores one audit report for a host. A 200 answer means the report is durably stored.\nA missing or invalid license key is answered 401 before the other fields are looked at.\n",
        "requestBody": {
          "$ref": "#/components/requestBodies/ReportUpload"
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/ReportStored"
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/UploadUnauthorized"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "503": {
            "$ref": "#/components/responses/ServerBusy"
          }
        }
      }
    },
    "/api/v1/audit/upload/": {
      "post": {
        "operationId": "uploadReportLegacy",
        "tags": [
          "audit"
        ],
        "deprecated": true,
        "summary": "Upload an audit report (legacy path)",
        "description": "Same behaviour as `POST /api/audit/upload/`.",
        "requestBody": {
          "$ref": "#/components/requestBodies/ReportUpload"
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/ReportStored"
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/UploadUnauthorized"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "503": {
            "$ref": "#/components/responses/ServerBusy"
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "LicenseKey": {
        "type": "string",
        "minLength": 1,
        "maxLength": 255,
        "description": "The collector's license key. Lynis deletes every character other than `[a-f0-9-]` before sending it,\nso keys use only lowercase hex digits and `-`.\n",
        "example": "deadbeef-0000-0000-0000-000000000001"
      },
      "HostId": {
        "type": "string",
        "minLength": 1,
        "maxLength": 255,
        "pattern": "^[!-~]+$",
        "description": "A host identifier in printable ASCII without spaces. Lynis sends 40 lowercase hex digits (SHA-1).",
        "example": "0123456789abcdef0123456789abcdef01234567"
      },
      "LicenseCheckForm": {
        "type": "object",
        "required": [
          "licensekey"
        ],
        "properties": {
          "licensekey": {
            "$ref": "#/components/schemas/LicenseKey"
          },
          "collector_version": {
            "type": "string",
            "maxLength": 64,
            "description": "Version of the audit collector's upload protocol. Lynis 3 sends `105`.",
            "example": "105"
          }
        }
      },
      "ReportUploadForm": {
        "type": "object",
        "required": [
          "licensekey",
          "hostid",
          "data"
        ],
        "properties": {
          "licensekey": {
            "$ref": "#/components/schemas/LicenseKey"
          },
          "hostid": {
            "$ref": "#/components/schemas/HostId"
          },
          "hostid2": {
            "allOf": [
              {
                "$ref": "#/components/schemas/HostId"
              }
            ],
            "description": "Secondary host identifier. Lynis sends 64 lowercase hex digits (SHA-256).",
            "example": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
          },
          "data": {
            "type": "string",
            "minLength": 1,
            "description": "The report, in one of two encodings, told apart by the server:\n- **raw**: the report text as Lynis writes and sends it: UTF-8 `key=value` lines, `#` comments allowed;\n- **base64**: the report bytes in strictly valid base64 (standard alphabet, padded, no line breaks\n  or other whitespace), as the original interface describes.\n\nAnything else is answered 400. The value of every `license_key=` line is replaced by\n`[redacted]` before the report is stored.\n",
            "example": "# Lynis Report\nreport_version_major=1\nlynis_version=3.0.8\nhostname=localhost\n"
          }
        }
      }
    },
    "requestBodies": {
      "LicenseCheck": {
        "required": true,
        "description": "The key to check. Lynis sends `licensekey` and `collector_version`, url-encoded.",
        "content": {
          "application/x-www-form-urlencoded": {
            "schema": {
              "$ref": "#/components/schemas/LicenseCheckForm"
            }
          }
        }
      },
      "ReportUpload": {
        "required": true,
        "description": "The report and the host it describes. Lynis sends `application/x-www-form-urlencoded`;\nother clients may use `multipart/form-data`, where `data` may also be a file part.\n",
        "content": {
          "application/x-www-form-urlencoded": {
            "schema": {
              "$ref": "#/components/schemas/ReportUploadForm"
            }
          },
          "multipart/form-data": {
            "schema": {
              "$ref": "#/components/schemas/ReportUploadForm"
            }
          }
        }
      }
    },
    "headers": {
      "Retry-After": {
        "description": "Seconds to wait before the next request.",
        "schema": {
          "type": "integer",
          "minimum": 1
        }
      }
    },
    "responses": {
      "LicenseValid": {
        "description": "The key is valid. The body is exactly these 12 bytes, without a trailing newline.",
        "content": {
          "text/plain": {
            "schema": {
              "type": "string",
              "enum": [
                "Response 100"
              ]
            },
            "examples": {
              "valid": {
                "summary": "Valid key",
                "value": "Response 100"
              }
            }
          }
        }
      },
      "LicenseInvalid": {
        "description": "The key is unknown, revoked, missing or empty. The body is exactly these 12 bytes.\nLynis then stops with \"Error while checking the license\".\n",
        "content": {
          "text/plain": {
            "schema": {
              "type": "string",
              "enum": [
                "Response 500"
              ]
            },
            "examples": {
              "invalid": {
                "summary": "Unknown, revoked, missing or empty key",
                "value": "Response 500"
              }
            }
          }
        }
      },
      "ReportStored": {
        "description": "The report is durably stored. The body is `OK` and the stored report's id.",
        "content": {
          "text/plain": {
            "schema": {
              "type": "string",
              "pattern": "^OK \\S+$"
            },
            "examples": {
              "stored": {
                "summary": "Stored report",
                "value": "OK 0f8fad5b-d9cb-469f-a165-70867728950e"
              }
            }
          }
        }
      },
      "BadRequest": {
        "description": "A field is missing or invalid. The body says which, in one line.",
        "content": {
          "text/plain": {
            "schema": {
              "type": "string"
            },
            "examples": {
              "missingHostId": {
                "summary": "No hostid field",
                "value": "Invalid request: must have required property 'hostid'"
              },
              "invalidData": {
                "summary": "data is neither a text report nor strict base64",
                "value": "Invalid data: line 3 is not a key=value line or a # comment"
              }
            }
          }
        }
      },
      "UploadUnauthorized": {
        "description": "The license key is unknown, revoked, missing or empty.",
        "content": {
          "text/plain": {
            "schema": {
              "type": "string"
            },
            "examples": {
              "invalidKey": {
                "summary": "Invalid key",
                "value": "Invalid license key"
              }
            }
          }
        }
      },
      "PayloadTooLarge": {
        "description": "The request body is larger than the server's limit (16 MiB by default on the reference server).\nThe server answers as soon as the limit is passed; the rest of the body is discarded as it arrives.\n",
        "content": {
          "text/plain": {
            "schema": {
              "type": "string"
            },
            "examples": {
              "tooLarge": {
                "summary": "Body over the limit",
                "value": "Request body too large (limit 16777216 bytes)"
              }
            }
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "The body is not `application/x-www-form-urlencoded` or `multipart/form-data`.",
        "content": {
          "text/plain": {
            "schema": {
              "type": "string"
            },
            "examples": {
              "json": {
                "summary": "A JSON body",
                "value": "Send the fields as application/x-www-form-urlencoded or multipart/form-data"
              }
            }
          }
        }
      },
      "RateLimited": {
        "description": "This client (its address, or its license key) sent too many requests, or too many with a wrong key.\nWait for the number of seconds in `Retry-After`.\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "text/plain": {
            "schema": {
              "type": "string"
            },
            "examples": {
              "limited": {
                "summary": "Over the limit",
                "value": "Too many requests"
              }
            }
          }
        }
      },
      "ServerBusy": {
        "description": "The server is already receiving as many uploads as it allows at once; the client is not at fault.\nTry again after the number of seconds in `Retry-After`.\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "text/plain": {
            "schema": {
              "type": "string"
            },
            "examples": {
              "busy": {
                "summary": "Too many uploads in flight",
                "value": "Server busy, try again later"
              }
            }
          }
        }
      }
    }
  }
};
