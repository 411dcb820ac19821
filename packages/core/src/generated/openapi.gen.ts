// This file is generated from openapi.yaml by scripts/generate.mjs. Do not edit.
import type { Document } from 'openapi-backend';

export const openApiDocument = {
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
    },
    {
      "name": "enroll",
      "description": "What a host fetches once to enroll itself (the enroll script), on the intake listener."
    },
    {
      "name": "admin",
      "description": "What operators and their tooling call: hosts, their reports and hardening index, license keys, and\nrefused uploads and license checks.\nEvery admin request carries an admin token (`Authorization: Bearer <token>`; the reference server creates\nthem with `audit-server admin-tokens create` and stores only their SHA-256 hash) or a person's session\ncookie (`POST /api/admin/session`). Answers are JSON;\nerrors are `application/problem+json` (RFC 9457).\n"
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
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
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
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
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
    "/api/audit/upload/": {
      "post": {
        "operationId": "uploadReport",
        "tags": [
          "audit"
        ],
        "summary": "Upload an audit report",
        "description": "Stores one audit report for a host. A 200 answer means the report is durably stored.\nA missing or invalid license key is answered 401 before the other fields are looked at.\n\n**What counts as a report.** `data` must hold a finished Lynis report: a `report_version_major=` or\n`lynis_version=` line, and a `finish=true` line (Lynis writes it when the audit completed, before it\nuploads). Anything else is answered 400 (refusal reason `not-a-report`) and not stored.\n\n**Host identity.** A host is one `hostid` under one license key. A report whose `hostid2` differs from the\nhost's last one is stored and flags the host (`Host.identityChange`, event `host.identity_changed`); a\nserver in strict identity mode answers it 409 instead (reason `host-identity-changed`) until an operator\naccepts the new `hostid2`. **Quotas.** A report from a host the key has not reported before is answered 429\n(reason `host-quota-exceeded`) when the key has enrolled its new hosts for the day (UTC) or holds its\nmaximum of hosts; reports from known hosts are never refused by a quota.\n",
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
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "409": {
            "$ref": "#/components/responses/HostIdentityChanged"
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
          "408": {
            "$ref": "#/components/responses/RequestTimeout"
          },
          "409": {
            "$ref": "#/components/responses/HostIdentityChanged"
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
    "/enroll.sh": {
      "get": {
        "operationId": "getEnrollScript",
        "tags": [
          "enroll"
        ],
        "summary": "The enroll script of an enrollment",
        "description": "A POSIX `sh` script, made for the enrollment whose secret the request carries, that installs Lynis where it\nis missing, points it at this server (certificate, license key, groups, tags, customer in a managed block of\n`/etc/lynis/custom.prf`), schedules a daily audit with upload, and runs the first one. Run it as root:\n`curl -fsS --pinnedpubkey 'sha256//…' -k -H 'Authorization: Bearer <secret>' https://SERVER:PORT/enroll.sh | sudo sh`\n(`sh -s -- --no-run` skips the first audit, `--uninstall` removes what it added). Served on the intake\nlistener. A missing, unknown, revoked or expired secret, or an enrollment that holds its maximum of hosts,\nis answered 401 without a script. The secret is never logged.\n",
        "security": [
          {
            "enrollmentSecret": []
          }
        ],
        "responses": {
          "200": {
            "description": "The script.",
            "content": {
              "text/x-shellscript": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "401": {
            "description": "No script for this secret.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                },
                "example": "Unknown, revoked or expired enrollment"
              }
            }
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
    "/api/admin/enrollments": {
      "get": {
        "operationId": "listEnrollments",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "List enrollments",
        "description": "Every enrollment, newest first: its license key, groups, tags, customer, expiry, maximum and number of\nhosts, and state. Never its secret.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The enrollments.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EnrollmentList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createEnrollment",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Create an enrollment and its one-line command",
        "description": "An enrollment lets hosts join with one command: the answer carries its `secret` and the `command` to run on\neach host, shown this once (the server keeps a hash of the secret). The command pins this server's TLS\npublic key, so it is safe on the default self-signed certificate. Hosts that enroll report under the\nlicense key `licenseKeyId` with the enrollment's groups, tags and customer.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewEnrollmentRequest"
              },
              "example": {
                "licenseKeyId": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
                "systemGroups": [
                  "webservers"
                ],
                "tags": [
                  "production"
                ],
                "customer": "acme",
                "expiresAt": "2026-12-31T00:00:00.000Z",
                "maxHosts": 50
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The enrollment, its secret and its command.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/NewEnrollment"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/enrollments/{enrollmentId}/revoke": {
      "post": {
        "operationId": "revokeEnrollment",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Revoke an enrollment",
        "description": "Its command stops working at once (401 without a script); hosts that enrolled keep reporting under their\nlicense key. Revoking twice changes nothing.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "enrollmentId",
            "in": "path",
            "required": true,
            "description": "The enrollment's id.",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "responses": {
          "204": {
            "description": "Revoked (or revoked already)."
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/session": {
      "get": {
        "operationId": "getAdminSession",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "Who this request is signed in as",
        "description": "A person signed in with the session cookie (`kind: user`: email, display name, role) or an admin token\n(`kind: token`: its id, label, first characters and role, never the token); for tools that show who is\nsigned in and offer only what the role may do.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "Who the request is signed in as.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AdminSession"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "signIn",
        "tags": [
          "admin"
        ],
        "x-required-role": "none",
        "summary": "Sign in with email and password",
        "description": "Checks a person's email and password and starts a session: the answer sets the cookie\n`__Host-audit_session` (HttpOnly, Secure, SameSite=Lax, Path=/), which later requests carry instead of an\nadmin token. An unknown email, a wrong password and a disabled account get the same 401. After too many\nwrong passwords for one account (or from one address) sign-in is refused with 429 for a while, even with the\nright password. A browser request from another site (its `Origin` is not the server's) is refused with 403.\n\nRequires no role: this is how one gets one.\n",
        "security": [],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SignInRequest"
              },
              "example": {
                "email": "ada@example.org",
                "password": "correct horse battery staple"
              }
            }
          }
        },
        "responses": {
          "204": {
            "description": "Signed in; the cookie carries the session.",
            "headers": {
              "Set-Cookie": {
                "description": "`__Host-audit_session=<random id>; Max-Age=<absolute lifetime>; Path=/; HttpOnly; Secure; SameSite=Lax`",
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemInvalidCredentials"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "delete": {
        "operationId": "signOut",
        "tags": [
          "admin"
        ],
        "x-required-role": "none",
        "summary": "Sign out",
        "description": "Ends the session the cookie names, if any, and clears the cookie; answered 204 also without one (signing\nout twice is no error). A browser request from another site is refused with 403.\n\nRequires no role: an expired session can still sign out.\n",
        "security": [],
        "responses": {
          "204": {
            "description": "Signed out; the cookie is cleared.",
            "headers": {
              "Set-Cookie": {
                "description": "`__Host-audit_session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax`",
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/session/options": {
      "get": {
        "operationId": "getSignInOptions",
        "tags": [
          "admin"
        ],
        "x-required-role": "none",
        "summary": "How one may sign in here",
        "description": "Whether single sign-on (OpenID Connect) is configured and the name to show on its button, so that the\nsign-in page offers only what works; email and password and admin tokens always work.\n\nRequires no role: the sign-in page asks before anyone is signed in.\n",
        "security": [],
        "responses": {
          "200": {
            "description": "The ways to sign in.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SignInOptions"
                },
                "example": {
                  "sso": {
                    "enabled": true,
                    "label": "Keycloak"
                  }
                }
              }
            }
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          }
        }
      }
    },
    "/api/admin/session/sso": {
      "get": {
        "operationId": "startSsoSignIn",
        "tags": [
          "admin"
        ],
        "x-required-role": "none",
        "summary": "Start signing in with the identity provider",
        "description": "Sends the browser to the OpenID Connect provider (authorization code flow with PKCE): answers 302 to its\nauthorization endpoint with a fresh `state` and `nonce`, which a short-lived cookie (`__Host-audit_sso`,\nHttpOnly, Secure, SameSite=Lax, ten minutes) binds to this browser. 404 when single sign-on is not\nconfigured; 503 when the provider cannot be reached.\n\nRequires no role: this is how one gets one.\n",
        "security": [],
        "responses": {
          "302": {
            "description": "On to the identity provider.",
            "headers": {
              "Location": {
                "description": "The provider's authorization endpoint with the request's parameters.",
                "schema": {
                  "type": "string"
                }
              },
              "Set-Cookie": {
                "description": "`__Host-audit_sso=<sealed state>; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax`",
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/session/sso/callback": {
      "get": {
        "operationId": "finishSsoSignIn",
        "tags": [
          "admin"
        ],
        "x-required-role": "none",
        "summary": "Where the identity provider sends the browser back",
        "description": "Checks the answer of the identity provider (the `state` against the cookie set by `startSsoSignIn`, the\ncode with the PKCE verifier, the ID token's signature, issuer, audience and `nonce`), creates the person\non first sign-in, sets its role from the configured claim (at every sign-in), starts a session as\n`signIn` does and sends the browser to the dashboard. Any failure (a tampered or replayed `state`, a\nprovider error, a person whose claim maps to no role, a disabled account) ends at the dashboard's sign-in\npage with `?sso_error=<reason>`, and no session.\n\nRequires no role: this is how one gets one.\n",
        "security": [],
        "parameters": [
          {
            "name": "code",
            "in": "query",
            "description": "The authorization code.",
            "schema": {
              "type": "string",
              "maxLength": 4096
            }
          },
          {
            "name": "state",
            "in": "query",
            "description": "The `state` sent to the provider.",
            "schema": {
              "type": "string",
              "maxLength": 1024
            }
          },
          {
            "name": "error",
            "in": "query",
            "description": "The provider's error code, when it refused.",
            "schema": {
              "type": "string",
              "maxLength": 1024
            }
          },
          {
            "name": "error_description",
            "in": "query",
            "description": "The provider's words on its error (logged at most, never shown).",
            "schema": {
              "type": "string",
              "maxLength": 4096
            }
          },
          {
            "name": "error_uri",
            "in": "query",
            "description": "A page of the provider on its error.",
            "schema": {
              "type": "string",
              "maxLength": 4096
            }
          },
          {
            "name": "iss",
            "in": "query",
            "description": "The provider's issuer identifier (RFC 9207), checked against the configured issuer when sent.",
            "schema": {
              "type": "string",
              "maxLength": 1024
            }
          },
          {
            "name": "session_state",
            "in": "query",
            "description": "The provider's session state (OpenID Connect Session Management), sent by some providers; unused.",
            "schema": {
              "type": "string",
              "maxLength": 1024
            }
          }
        ],
        "responses": {
          "302": {
            "description": "On to the dashboard; signed in on success (the cookie carries the session).",
            "headers": {
              "Location": {
                "description": "`/` on success, `/?sso_error=<reason>` otherwise.",
                "schema": {
                  "type": "string"
                }
              },
              "Set-Cookie": {
                "description": "The session cookie, as `signIn` sets it; the `__Host-audit_sso` cookie cleared.",
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          }
        }
      }
    },
    "/api/admin/session/tokens": {
      "get": {
        "operationId": "listMyTokens",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The signed-in person's own API tokens",
        "description": "The personal tokens of the person signed in with the session cookie, newest first (never the tokens\nthemselves). A request made with a token is answered 409: tokens belong to people, not to tokens.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The person's tokens.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AdminTokenList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createMyToken",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "Create a personal API token",
        "description": "A token for scripts that act as the signed-in person: its role is at most the person's (the person's own\nwhen none is given; a higher one is refused with 400) and its scope is the person's. When the person's\nrole is lowered below the token's, or the account is disabled, the token stops working. The answer is the\nonly time the token is shown.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewPersonalTokenRequest"
              },
              "example": {
                "label": "nightly export",
                "role": "viewer",
                "expiresAt": "2027-05-01T00:00:00.000Z"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The new token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/NewAdminToken"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/session/tokens/{tokenId}/revoke": {
      "post": {
        "operationId": "revokeMyToken",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "Revoke one of one's own personal tokens",
        "description": "Revokes a personal token of the signed-in person; it is refused from the next request on. 404 when the\nperson has no token with this id.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/TokenId"
          }
        ],
        "responses": {
          "204": {
            "description": "Revoked (or revoked already)."
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/users": {
      "get": {
        "operationId": "listUsers",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "List people's accounts",
        "description": "Every account, in the order of their emails: role, scope, whether it is disabled, whether it signs in with\na password or through single sign-on, and when it last signed in. Never a password or its hash.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The accounts.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/UserList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createUser",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Add a person",
        "description": "Adds an account. With a `password` (at least 12 characters) the person signs in with email and password;\nwithout one only through single sign-on (where it is configured). 409 when an account has this email,\nwhatever its case.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewUserRequest"
              },
              "example": {
                "email": "grace@example.org",
                "displayName": "Grace Hopper",
                "role": "operator",
                "password": "a long passphrase of words",
                "scope": {
                  "customers": [
                    "acme"
                  ],
                  "groups": []
                }
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The new account.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/users/{userId}": {
      "patch": {
        "operationId": "updateUser",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Change a person's role, name, scope or whether it may sign in",
        "description": "Changes the fields given. Changing the role or the scope, or disabling the account, ends its sessions,\nand its personal tokens follow its role and scope from the next request on. The last enabled `admin`\ncannot be demoted or disabled (409), so that someone can always manage the server.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/UserId"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/UserChange"
              },
              "example": {
                "role": "viewer",
                "disabled": false
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The account as it is now.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "delete": {
        "operationId": "deleteUser",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Delete a person's account",
        "description": "Deletes the account, its sessions and its personal tokens. What it did stays in the audit trail, which\nnames it by email. The last enabled `admin` cannot be deleted (409).\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/UserId"
          }
        ],
        "responses": {
          "204": {
            "description": "Deleted."
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/tokens": {
      "get": {
        "operationId": "listAdminTokens",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "List API tokens",
        "description": "Every admin API token, oldest first: personal ones with their owner, service-account ones with the\naccount's name; role, scope, created, last used, expiry and revocation. Never a token itself.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The tokens.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AdminTokenList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createServiceToken",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Create a token for a service account",
        "description": "A token for a named service account (a SIEM, a CI job, a script), with its own role and scope. The answer\nis the only time the token is shown; the server keeps its SHA-256 only.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewServiceTokenRequest"
              },
              "example": {
                "serviceAccount": "siem",
                "label": "audit trail export",
                "role": "admin",
                "expiresAt": "2027-11-01T00:00:00.000Z"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The new token.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/NewAdminToken"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/tokens/{tokenId}/revoke": {
      "post": {
        "operationId": "revokeAdminToken",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Revoke any API token",
        "description": "Revokes a token, personal or a service account's; it is refused from the next request on, on every\nserver. Revoking twice changes nothing.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/TokenId"
          }
        ],
        "responses": {
          "204": {
            "description": "Revoked (or revoked already)."
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/audit-events": {
      "get": {
        "operationId": "listAuditEvents",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "The audit trail",
        "description": "Who did what, newest first: every sign-in (and failed one), sign-out, and every admin operation that\nchanges something or exports, whether it succeeded, failed or was refused. Entries are never edited nor\ndeleted through any API (only retention removes the oldest, by default after 400 days); each carries the\nhash of the one before it, so `audit-server audit verify` finds an altered or removed entry. Paged by\n`before` (the `sequence` of the page's last entry).\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "name": "before",
            "in": "query",
            "description": "Only entries older than this `sequence` (the next page).",
            "schema": {
              "type": "integer",
              "minimum": 1
            }
          },
          {
            "name": "actor",
            "in": "query",
            "description": "Only entries by this actor (a person's email, or a token's or service account's id or label).",
            "schema": {
              "type": "string",
              "maxLength": 255
            }
          },
          {
            "name": "operation",
            "in": "query",
            "description": "Only entries of this operation (an operationId such as `createWaiver`).",
            "schema": {
              "type": "string",
              "maxLength": 64
            }
          },
          {
            "name": "targetType",
            "in": "query",
            "description": "Only entries about this kind of thing (`user`, `license-key`, `waiver`, …).",
            "schema": {
              "type": "string",
              "maxLength": 64
            }
          },
          {
            "name": "targetId",
            "in": "query",
            "description": "Only entries about the thing with this id.",
            "schema": {
              "type": "string",
              "maxLength": 255
            }
          },
          {
            "name": "outcome",
            "in": "query",
            "description": "Only entries with this outcome.",
            "schema": {
              "$ref": "#/components/schemas/AuditOutcome"
            }
          },
          {
            "name": "since",
            "in": "query",
            "description": "Only entries at or after this time.",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          },
          {
            "name": "until",
            "in": "query",
            "description": "Only entries before this time.",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One page of entries.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/AuditEventPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/hosts": {
      "get": {
        "operationId": "listHosts",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "List hosts",
        "description": "Hosts that uploaded at least one report, most recently seen first unless `sort` says otherwise. A host is\none `hostid` under one license key: the same `hostid` under another key is another host. Filters combine.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/AsOf"
          },
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/Offset"
          },
          {
            "$ref": "#/components/parameters/HostnameFilter"
          },
          {
            "$ref": "#/components/parameters/KeyIdFilter"
          },
          {
            "$ref": "#/components/parameters/HostIdFilter"
          },
          {
            "$ref": "#/components/parameters/GroupFilter"
          },
          {
            "$ref": "#/components/parameters/TagFilter"
          },
          {
            "$ref": "#/components/parameters/OsFilter"
          },
          {
            "$ref": "#/components/parameters/FindingFilter"
          },
          {
            "$ref": "#/components/parameters/FindingKindFilter"
          },
          {
            "$ref": "#/components/parameters/SeenBefore"
          },
          {
            "$ref": "#/components/parameters/ComplianceFilter"
          },
          {
            "$ref": "#/components/parameters/FailingPolicyFilter"
          },
          {
            "$ref": "#/components/parameters/FailingRuleFilter"
          },
          {
            "$ref": "#/components/parameters/HostRecordIdsFilter"
          },
          {
            "$ref": "#/components/parameters/HostStateFilter"
          },
          {
            "$ref": "#/components/parameters/HostSort"
          },
          {
            "$ref": "#/components/parameters/HostOrder"
          }
        ],
        "responses": {
          "200": {
            "description": "One page of hosts.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/HostPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/hosts/{hostRecordId}": {
      "get": {
        "operationId": "getHost",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "description": "Requires the `viewer` role.",
        "summary": "Get a host and the history of its hardening index",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "hostRecordId",
            "in": "path",
            "required": true,
            "description": "The host's id (`Host.id`).",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          },
          {
            "name": "historyLimit",
            "in": "query",
            "description": "How many of the newest reports the hardening history covers.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000,
              "default": 100
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The host.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/HostDetail"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "delete": {
        "operationId": "deleteHost",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Delete a host and all its reports",
        "description": "Purges the host: its reports, findings, labels, policy results and their history, and its host waivers.\nThe audit trail keeps who deleted which host and when (`host.deleted` event). A later report under its\n`hostid` makes a new host. Cannot be undone.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "hostRecordId",
            "in": "path",
            "required": true,
            "description": "The host's id (`Host.id`).",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "responses": {
          "204": {
            "description": "The host and its reports are gone."
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/hosts/{hostRecordId}/identity/accept": {
      "post": {
        "operationId": "acceptHostIdentity",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Accept a host's new identity",
        "description": "Accepts the `hostid2` a host's flagged identity change names (`Host.identityChange`), e.g. after the host\nwas reinstalled: the flag is cleared and the host's `hostid2` becomes this one, so that in strict identity\nmode its next report is stored. Answered 409 when the host has no identity change naming this `hostid2`.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "hostRecordId",
            "in": "path",
            "required": true,
            "description": "The host's id (`Host.id`).",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/HostIdentityAcceptance"
              },
              "example": {
                "hostId2": "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The host, with its new identity.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Host"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/hosts/{hostRecordId}/decommission": {
      "post": {
        "operationId": "decommissionHost",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Decommission a host",
        "description": "Takes the host out of every fleet figure, compliance percentage, chart and default list (the host list's\n`state` filter still shows it), keeping its reports: its findings and policy results stop counting until it\nreports again or is reactivated. A host already decommissioned is answered as it is. A report from a\ndecommissioned host makes it active again (`host.reactivated`).\n\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "hostRecordId",
            "in": "path",
            "required": true,
            "description": "The host's id (`Host.id`).",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The host, decommissioned.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Host"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/hosts/{hostRecordId}/reactivate": {
      "post": {
        "operationId": "reactivateHost",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Reactivate a decommissioned host",
        "description": "Makes a decommissioned host active again (stale when its last report is older than the stale threshold):\nits newest report's findings and policy results count again. A host not decommissioned is answered as it is.\n\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "hostRecordId",
            "in": "path",
            "required": true,
            "description": "The host's id (`Host.id`).",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The host, active again.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Host"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/hosts/{hostRecordId}/merge": {
      "post": {
        "operationId": "mergeHosts",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Merge another host into this one",
        "description": "The same machine under two host records (a new `hostid` after a reinstall or a Lynis upgrade): the other\nhost's reports, policy result history and host waivers move to this host, which takes the newest report's\nhost name, labels and findings; the other host disappears, and later reports under its `hostid` join this\nhost. Recorded in the audit trail, with a `host.merged` event. 400 when both ids name the same host.\n\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "hostRecordId",
            "in": "path",
            "required": true,
            "description": "The host's id (`Host.id`).",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/HostMergeInput"
              },
              "example": {
                "hostRecordId": "7c9e6679-7425-40de-944b-e07fc1f90ae7"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "This host, with the other one merged into it.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Host"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/hosts/bulk-state": {
      "post": {
        "operationId": "changeHostStates",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Decommission or reactivate many hosts at once",
        "description": "`decommissionHost` or `reactivateHost` for each host selected (at most 10,000; 400 beyond), in one\ntransaction. Hosts already in the state asked for are left as they are.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/HostStateChangeInput"
              },
              "example": {
                "action": "decommission",
                "hosts": {
                  "ids": [
                    "0f8fad5b-d9cb-469f-a165-70867728950e"
                  ]
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "How many hosts changed state.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/HostStateChangeResult"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/reports": {
      "get": {
        "operationId": "listReports",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "List reports",
        "description": "Stored reports, newest first, without their content.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/Offset"
          },
          {
            "name": "hostRecordId",
            "in": "query",
            "description": "Only reports of this host (`Host.id`).",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          },
          {
            "name": "keyId",
            "in": "query",
            "description": "Only reports uploaded with this license key.",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One page of reports.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReportPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/reports/{reportId}": {
      "get": {
        "operationId": "getReport",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "description": "Requires the `viewer` role.",
        "summary": "Get a report's metadata and summary",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/ReportId"
          }
        ],
        "responses": {
          "200": {
            "description": "The report's metadata and, for a Lynis report, its summary.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReportDetail"
                },
                "example": {
                  "id": "0f8fad5b-d9cb-469f-a165-70867728950e",
                  "hostRecordId": "0f8fad5b-d9cb-469f-a165-70867728950e",
                  "keyId": "0f8fad5b-d9cb-469f-a165-70867728950e",
                  "hostId": "0123456789abcdef0123456789abcdef01234567",
                  "hostId2": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                  "receivedAt": "2026-11-22T13:41:25.000Z",
                  "encoding": "raw",
                  "size": 42733,
                  "sha256": "9f2c8e0b5c1f4d7a3e6b2a1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e",
                  "hostname": "web-01",
                  "lynisVersion": "3.0.8",
                  "hardeningIndex": 56,
                  "warningCount": 1,
                  "suggestionCount": 2,
                  "summary": {
                    "lynisVersion": "3.0.8",
                    "reportVersion": "1.0",
                    "hostname": "web-01",
                    "os": {
                      "name": "Debian",
                      "fullName": "Debian GNU/Linux 12 (bookworm)",
                      "version": "12",
                      "kernel": "6.1.0-28-amd64"
                    },
                    "startedAt": "2026-11-22 13:40:33",
                    "endedAt": "2026-11-22 13:41:24",
                    "hardeningIndex": 56,
                    "testsPerformed": 235,
                    "warnings": [
                      {
                        "testId": "PKGS-7392",
                        "text": "Found one or more vulnerable packages.",
                        "details": null,
                        "solution": null
                      }
                    ],
                    "suggestions": [
                      {
                        "testId": "DEB-0280",
                        "text": "Install libpam-tmpdir to set $TMP and $TMPDIR for PAM sessions",
                        "details": null,
                        "solution": null
                      },
                      {
                        "testId": "SSH-7408",
                        "text": "Consider hardening SSH configuration",
                        "details": "AllowTcpForwarding (set YES to NO)",
                        "solution": null
                      }
                    ]
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/reports/{reportId}/raw": {
      "get": {
        "operationId": "getRawReport",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "Get a report as stored",
        "description": "The report's bytes as stored: as the collector sent them (base64 decoded), except that the value of every\n`license_key=` line, and every other occurrence of the key the collector presented (when it has at least 16\ncharacters), reads `[redacted]`. Sent as a download (`Content-Disposition: attachment`): the text is the\nhost's, and hostile. Like every admin answer it carries `X-Content-Type-Options: nosniff`,\n`Cache-Control: no-store` and `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'`.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/ReportId"
          }
        ],
        "responses": {
          "200": {
            "description": "The stored report.",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                },
                "examples": {
                  "lynis": {
                    "summary": "A Lynis report",
                    "value": "# Lynis Report\nreport_version_major=1\nreport_version_minor=0\nreport_datetime_start=2026-11-22 13:40:33\nlynis_version=3.0.8\nos_name=Debian\nos_fullname=Debian GNU/Linux 12 (bookworm)\nos_version=12\nos_kernel_version_full=6.1.0-28-amd64\nhostname=web-01\nlicense_key=[redacted]\nlynis_tests_done=235\nwarning[]=PKGS-7392|Found one or more vulnerable packages.|-|-|\nsuggestion[]=DEB-0280|Install libpam-tmpdir to set $TMP and $TMPDIR for PAM sessions|-|-|\nsuggestion[]=SSH-7408|Consider hardening SSH configuration|AllowTcpForwarding (set YES to NO)|-|\nreport_datetime_end=2026-11-22 13:41:24\nhardening_index=56\n"
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/reports/{reportId}/diff": {
      "get": {
        "operationId": "getReportDiff",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "What changed between two reports of a host",
        "description": "Compares the report with the one its host sent just before it, or with `against`, another report of the\nsame host; the earlier of the two is `before`. The comparison reads both stored reports now.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/ReportId"
          },
          {
            "name": "against",
            "in": "query",
            "description": "Another report of the same host. Default the host's report received just before this one.",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The two reports compared.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReportDiff"
                },
                "example": {
                  "beforeReportId": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
                  "afterReportId": "0f8fad5b-d9cb-469f-a165-70867728950e",
                  "changes": {
                    "hardeningIndex": {
                      "before": 64,
                      "after": 61
                    },
                    "warnings": {
                      "added": [
                        {
                          "testId": "FIRE-4512",
                          "text": "iptables module(s) loaded, but no rules active",
                          "details": null,
                          "solution": null
                        }
                      ],
                      "resolved": []
                    },
                    "suggestions": {
                      "added": [],
                      "resolved": [
                        {
                          "testId": "DEB-0280",
                          "text": "Install libpam-tmpdir to set $TMP and $TMPDIR for PAM sessions",
                          "details": null,
                          "solution": null
                        }
                      ]
                    },
                    "packages": {
                      "added": [],
                      "removed": [],
                      "changed": [
                        {
                          "name": "openssl",
                          "before": "3.0.15-1~deb12u1",
                          "after": "3.0.17-1~deb12u2"
                        }
                      ]
                    },
                    "vulnerablePackages": {
                      "added": [],
                      "resolved": [
                        "jq"
                      ]
                    },
                    "values": {
                      "added": [],
                      "removed": [],
                      "changed": [
                        {
                          "key": "firewall_active",
                          "before": "1",
                          "after": "0"
                        }
                      ]
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/keys": {
      "get": {
        "operationId": "listLicenseKeys",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "List license keys",
        "description": "Every license key, oldest first. Keys are stored hashed, so only their first characters are shown.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The keys.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/LicenseKeyList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createLicenseKey",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Create a license key",
        "description": "Creates a key with 192 random bits. The answer is the only time the key itself is shown.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewLicenseKeyRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The new key.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/NewLicenseKey"
                },
                "example": {
                  "key": {
                    "id": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
                    "label": "web servers",
                    "prefix": "3f9a2c1e",
                    "state": "valid",
                    "createdAt": "2026-11-23T09:00:00.000Z",
                    "expiresAt": "2027-11-01T00:00:00.000Z",
                    "lastUsedAt": null,
                    "lastUploadAt": null,
                    "newHostsPerDay": null,
                    "maxHosts": null
                  },
                  "licenseKey": "3f9a2c1e-5b7d4e8f-0a1b2c3d-4e5f6a7b-8c9d0e1f-2a3b4c5d"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/keys/{keyId}": {
      "patch": {
        "operationId": "updateLicenseKey",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Change a license key's settings",
        "description": "Sets the key's quotas: how many hosts new to it may enroll per day (UTC) and how many hosts it may have,\nand its expiry. `null` returns a quota to the server's default (no maximum for `maxHosts`) and removes\nthe expiry. Every server sharing the database applies quotas from the next commit of reports, and an\nexpiry as it does a revocation: within about a second. A revoked key's expiry cannot be changed (409):\nit stays revoked whatever its expiry says.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/KeyId"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/LicenseKeySettings"
              },
              "example": {
                "newHostsPerDay": 500,
                "maxHosts": 2000,
                "expiresAt": "2027-11-01T00:00:00.000Z"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The key with its new settings.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/LicenseKeyInfo"
                },
                "example": {
                  "id": "0f8fad5b-d9cb-469f-a165-70867728950e",
                  "label": "web servers",
                  "prefix": "3f9a2c1e",
                  "state": "valid",
                  "createdAt": "2026-11-01T08:00:00.000Z",
                  "expiresAt": "2027-11-01T00:00:00.000Z",
                  "lastUsedAt": "2026-11-22T13:41:25.000Z",
                  "lastUploadAt": "2026-11-22T13:41:25.000Z",
                  "newHostsPerDay": 500,
                  "maxHosts": 2000
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/keys/{keyId}/revoke": {
      "post": {
        "operationId": "revokeLicenseKey",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Revoke a license key",
        "description": "From now on the key's license checks answer `Response 500` and its uploads 401. Every server instance\nsharing the database notices within about a second. Revoking a revoked key changes nothing.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/KeyId"
          }
        ],
        "responses": {
          "200": {
            "description": "The key, now revoked.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/LicenseKeyInfo"
                },
                "example": {
                  "id": "0f8fad5b-d9cb-469f-a165-70867728950e",
                  "label": "web servers",
                  "prefix": "3f9a2c1e",
                  "state": "revoked",
                  "createdAt": "2026-11-01T08:00:00.000Z",
                  "expiresAt": null,
                  "lastUsedAt": "2026-11-22T13:41:25.000Z",
                  "lastUploadAt": "2026-11-22T13:41:25.000Z",
                  "newHostsPerDay": null,
                  "maxHosts": null
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/keys/{keyId}/rotate": {
      "post": {
        "operationId": "rotateLicenseKey",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Rotate a license key",
        "description": "Issues a new key with the old key's label. The old key keeps working for the grace period, so hosts can\nbe given the new one, then counts as revoked.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/KeyId"
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RotateLicenseKeyRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The new key, and the old one with its new expiry.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RotatedLicenseKey"
                },
                "example": {
                  "key": {
                    "id": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
                    "label": "web servers",
                    "prefix": "8d2b4f60",
                    "state": "valid",
                    "createdAt": "2026-11-23T09:00:00.000Z",
                    "expiresAt": null,
                    "lastUsedAt": null,
                    "lastUploadAt": null,
                    "newHostsPerDay": null,
                    "maxHosts": null
                  },
                  "licenseKey": "8d2b4f60-1e3a5c7b-9d0f2e4a-6b8c0d1e-3f5a7b9c-0d2e4f6a",
                  "previous": {
                    "id": "0f8fad5b-d9cb-469f-a165-70867728950e",
                    "label": "web servers",
                    "prefix": "3f9a2c1e",
                    "state": "valid",
                    "createdAt": "2026-11-01T08:00:00.000Z",
                    "expiresAt": "2026-11-24T09:00:00.000Z",
                    "lastUsedAt": "2026-11-22T13:41:25.000Z",
                    "lastUploadAt": "2026-11-22T13:41:25.000Z",
                    "newHostsPerDay": null,
                    "maxHosts": null
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/overview": {
      "get": {
        "operationId": "getOverview",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The fleet at a glance",
        "description": "Counts, hardening index, trends, the most common findings, the OS and Lynis-version mix and the uploads\naccepted and refused per day, over every host. Findings, OS and versions come from each host's latest\nreport; trends from the reports still stored (retention shortens them).\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/AsOf"
          },
          {
            "name": "staleDays",
            "in": "query",
            "deprecated": true,
            "description": "Ignored: a host's staleness is its lifecycle state (`Host.state`), from the server's stale threshold\nand its groups' own. Kept so that older clients still get an answer.\n",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 3650,
              "default": 7
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The overview.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Overview"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/hosts/{hostRecordId}/findings": {
      "get": {
        "operationId": "listHostFindings",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "A host's findings with their lifecycle",
        "description": "Every warning and suggestion the host has had since the server kept finding lifecycles, one per kind and\ntest id, with its state, owner, first and last seen and when it was resolved: open and regressed first,\nthen acknowledged, accepted and resolved, each by test id.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "hostRecordId",
            "in": "path",
            "required": true,
            "description": "The host's id (`Host.id`).",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          },
          {
            "$ref": "#/components/parameters/FindingStateFilter"
          }
        ],
        "responses": {
          "200": {
            "description": "The host's findings.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrackedFindingList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/people": {
      "get": {
        "operationId": "listPeople",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "The people findings can be assigned to and approved by",
        "description": "Every enabled account's id, email and name, by email: what an operator needs to pick a finding's owner or\nthe approver of an accepted risk (managing accounts is `listUsers`, for admins).\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The enabled people.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PersonList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/findings/time-to-fix": {
      "get": {
        "operationId": "getTimeToFix",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "How long findings take to be fixed",
        "description": "Over the findings resolved between `from` and `to` (default: the last 90 days): how many, and the mean and\nmedian time from first seen to resolved, overall, per kind, per test id (the 20 with most resolved), per\nsystem group and per customer; the findings opened, resolved and regressed in the last 7 days before `to`;\nand the ten oldest open findings. Of the hosts in the actor's scope, decommissioned hosts left out.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "from",
            "in": "query",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          },
          {
            "name": "to",
            "in": "query",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The figures.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TimeToFix"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/findings/tracked": {
      "get": {
        "operationId": "listTrackedFindings",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "Findings across the fleet with their lifecycle",
        "description": "One item per host, kind and test id, filtered by state, owner, group, kind, test id and age (days since\nfirst seen), oldest first. `owner=me` is the signed-in person's (a token has no findings of its own: 400).\nDecommissioned hosts' findings are left out.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/Offset"
          },
          {
            "$ref": "#/components/parameters/FindingStateFilter"
          },
          {
            "name": "owner",
            "in": "query",
            "description": "A user id, or `me`.",
            "schema": {
              "type": "string",
              "maxLength": 64
            }
          },
          {
            "$ref": "#/components/parameters/GroupFilter"
          },
          {
            "name": "kind",
            "in": "query",
            "schema": {
              "$ref": "#/components/schemas/FindingKind"
            }
          },
          {
            "name": "testId",
            "in": "query",
            "schema": {
              "$ref": "#/components/schemas/TestId"
            }
          },
          {
            "name": "minAgeDays",
            "in": "query",
            "description": "Only findings first seen at least this many days ago.",
            "schema": {
              "type": "integer",
              "minimum": 0,
              "maximum": 3650
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One page of findings.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrackedFindingPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/findings/{findingId}": {
      "patch": {
        "operationId": "updateFinding",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Acknowledge, assign, accept or reopen a finding",
        "description": "`state: acknowledged` takes ownership (`ownerUserId`, default the signed-in person; optional `dueAt`);\n`state: accepted` accepts the risk: `reason`, `expiresAt` and `approverUserId` are required, the approver\nmust be another person than the one asking when the server says so (`--finding-approval distinct`), and\naccepting may need the `admin` role (`--finding-accept-role admin`, else 403); `state: open` reopens an\nacknowledged or accepted finding. `ownerUserId` and `dueAt` alone reassign it. A resolved finding cannot be\nchanged (409): it reopens, as `regressed`, when a report has it again. Every change is kept with who,\nwhen and why, and recorded in the audit trail.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "findingId",
            "in": "path",
            "required": true,
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/FindingUpdate"
              },
              "example": {
                "state": "accepted",
                "reason": "Legacy telnet kept until the migration (ticket SEC-88)",
                "expiresAt": "2027-03-31T00:00:00.000Z",
                "approverUserId": "0f8fad5b-d9cb-469f-a165-70867728950e"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The finding as changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TrackedFinding"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/findings": {
      "get": {
        "operationId": "listFindings",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "Warnings and suggestions across the fleet",
        "description": "The warnings and suggestions of every host's latest report, one item per kind and test id, most hosts\naffected first (ties by test id). `GET /api/admin/hosts?finding=<test id>` lists the hosts of one.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/Offset"
          },
          {
            "name": "kind",
            "in": "query",
            "description": "Only warnings or only suggestions.",
            "schema": {
              "$ref": "#/components/schemas/FindingKind"
            }
          },
          {
            "name": "testId",
            "in": "query",
            "description": "Only this test id.",
            "schema": {
              "$ref": "#/components/schemas/TestId"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One page of findings.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/FindingGroupPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/facets": {
      "get": {
        "operationId": "listFacets",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The known groups, tags, operating systems, license keys and customers, with their host counts",
        "description": "What the host filters can be set to, most hosts first (then by value), for suggestions as an operator\ntypes: each value of each field with how many hosts' latest reports carry it. `q` keeps the values that\ncontain it (case-insensitive); values differing only in case are counted apart.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "field",
            "in": "query",
            "description": "Only this field (the others are answered empty).",
            "schema": {
              "$ref": "#/components/schemas/FacetField"
            }
          },
          {
            "name": "q",
            "in": "query",
            "description": "Only values containing this text, case-insensitively and literally.",
            "schema": {
              "$ref": "#/components/schemas/LabelFilter"
            }
          },
          {
            "name": "limit",
            "in": "query",
            "description": "Most values per field.",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100,
              "default": 10
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The values of each field.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Facets"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/rejections": {
      "get": {
        "operationId": "listRejections",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "List refused uploads and license checks",
        "description": "Refused uploads and license checks, so operators see which hosts are losing reports and why (Lynis prints\n`DONE` even when its upload was refused). One item per day (UTC), operation, reason, license key and\n`hostid`, with the client addresses it came from and how many requests were refused; newest day first,\nthen most recently refused first. Servers write refusals in batches (every few seconds), keep them for a\nlimited number of days, and bound how many distinct groups they keep per day: refusals beyond that bound\nare counted in `folded` items whose host and address are not shown.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/Offset"
          },
          {
            "name": "since",
            "in": "query",
            "description": "Only refusals on this day (UTC) or later.",
            "schema": {
              "type": "string",
              "format": "date",
              "example": "2026-11-01"
            }
          },
          {
            "name": "operation",
            "in": "query",
            "description": "Only refused license checks or only refused uploads.",
            "schema": {
              "$ref": "#/components/schemas/RejectedOperation"
            }
          },
          {
            "name": "reason",
            "in": "query",
            "description": "Only refusals for this reason.",
            "schema": {
              "$ref": "#/components/schemas/RejectionReason"
            }
          },
          {
            "name": "keyId",
            "in": "query",
            "description": "Only refusals of requests that named this license key.",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          },
          {
            "name": "hostId",
            "in": "query",
            "description": "Only refusals of requests from this `hostid`.",
            "schema": {
              "$ref": "#/components/schemas/HostId"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One page of refusals.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RejectionPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/policies": {
      "get": {
        "operationId": "listPolicies",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "List compliance policies",
        "description": "Every policy, by name, with how many hosts pass, fail, err or are waived on each rule.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The policies.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PolicyList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createPolicy",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Create a compliance policy",
        "description": "A policy is a named set of rules, each a CEL expression over one host's latest report that is true when the\nhost complies. Every expression is checked before the policy is saved: a 400 names each faulty rule and\nthe position of its error, or (position null) the budget it exceeds on a large synthetic report. Hosts are\nevaluated in the background within seconds.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "$ref": "#/components/requestBodies/PolicyInput"
        },
        "responses": {
          "201": {
            "description": "The policy.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Policy"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemInvalidPolicy"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/policies/baseline": {
      "post": {
        "operationId": "enableBaselinePolicy",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Create the shipped baseline policy",
        "description": "Creates the policy named `Baseline` for every host: hardening index at least 50, no vulnerable packages,\nfirewall active, no warnings besides PKGS-7392 and LOGG-2138, audited within the last 7 days. It can be\nadded beside any other policies. 409 when a policy of that name exists (nothing is changed).\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "201": {
            "description": "The baseline policy.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Policy"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/policies/baseline/preview": {
      "get": {
        "operationId": "previewBaselinePolicy",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "How many hosts each rule of the shipped baseline would pass and fail",
        "description": "Runs the baseline's rules on the latest reports of the most recently seen hosts (2,000 at most), in the\nrule worker under the evaluation budget, and answers per rule the hosts evaluated, passing, failing and\nerring. Nothing is stored; the baseline need not exist.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The counts of each rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PolicyPreview"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/policies/preview": {
      "post": {
        "operationId": "previewPolicy",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "How many hosts a policy would cover and fail, before it is saved",
        "description": "Checks the policy as `createPolicy` would (400 with `ruleErrors` when a rule does not compile), then runs\nits rules on the latest reports of the most recently seen hosts in its scope (2,000 at most), in the rule\nworker under the evaluation budget. Nothing is stored; `enabled` is ignored.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "$ref": "#/components/requestBodies/PolicyInput"
        },
        "responses": {
          "200": {
            "description": "The hosts the policy covers and the counts of each rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PolicyPreview"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemInvalidPolicy"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/policies/{policyId}": {
      "get": {
        "operationId": "getPolicy",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "description": "Requires the `viewer` role.",
        "summary": "Get a compliance policy",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/PolicyId"
          }
        ],
        "responses": {
          "200": {
            "description": "The policy.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Policy"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "put": {
        "operationId": "updatePolicy",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Replace a compliance policy",
        "description": "Replaces the policy's name, scope and rules; every host is evaluated again. Results of rules that are gone are deleted.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/PolicyId"
          }
        ],
        "requestBody": {
          "$ref": "#/components/requestBodies/PolicyInput"
        },
        "responses": {
          "200": {
            "description": "The policy.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Policy"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemInvalidPolicy"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "delete": {
        "operationId": "deletePolicy",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "description": "Requires the `admin` role.",
        "summary": "Delete a compliance policy, its results and its waivers",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/PolicyId"
          }
        ],
        "responses": {
          "204": {
            "description": "Deleted."
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/policies/{policyId}/results": {
      "get": {
        "operationId": "listPolicyResults",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "Each host's result on a policy's rules",
        "description": "One item per host in the policy's scope and rule, from the host's latest report, with the total over all\npages. `sort` and `order` choose the order (`order` defaults to `asc` here: the default order is failures\nfirst, then errors, waived and passes; within those, by host name).\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/AsOf"
          },
          {
            "$ref": "#/components/parameters/PolicyId"
          },
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/Offset"
          },
          {
            "name": "ruleId",
            "in": "query",
            "description": "Only this rule.",
            "schema": {
              "$ref": "#/components/schemas/RuleId"
            }
          },
          {
            "name": "status",
            "in": "query",
            "description": "Only results with this status.",
            "schema": {
              "$ref": "#/components/schemas/RuleStatus"
            }
          },
          {
            "name": "hostname",
            "in": "query",
            "description": "Only results of hosts whose name (as in the report evaluated) contains this text, case-insensitively\nand literally (`%` and `_` are no wildcards).\n",
            "schema": {
              "$ref": "#/components/schemas/LabelFilter"
            }
          },
          {
            "name": "sort",
            "in": "query",
            "description": "`status` (default: failures first, then errors, waived and passes, each by host name), `hostname`,\n`since` (when the result last changed status: `asc` puts the longest-failing first) or `rule`; ties by\nhost name, host and rule.\n",
            "schema": {
              "type": "string",
              "enum": [
                "status",
                "hostname",
                "since",
                "rule"
              ],
              "default": "status"
            }
          },
          {
            "name": "order",
            "in": "query",
            "description": "`asc` (default) or `desc`.",
            "schema": {
              "type": "string",
              "enum": [
                "asc",
                "desc"
              ],
              "default": "asc"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One page of results.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PolicyResultPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/hosts/{hostRecordId}/compliance": {
      "get": {
        "operationId": "getHostCompliance",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "description": "Requires the `viewer` role.",
        "summary": "A host's results on every policy, and how they changed",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "hostRecordId",
            "in": "path",
            "required": true,
            "description": "The host's id (`Host.id`).",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The host's results.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/HostCompliance"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/waivers": {
      "get": {
        "operationId": "listWaivers",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "List waivers",
        "description": "Waivers that have not expired, soonest expiry first (with `includeExpired`, expired ones too).\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "policyId",
            "in": "query",
            "description": "Only waivers of this policy.",
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          },
          {
            "name": "includeExpired",
            "in": "query",
            "schema": {
              "type": "boolean",
              "default": false
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The waivers.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/WaiverList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createWaiver",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Waive a rule (or a whole policy) for a host, a group or every host",
        "description": "Until it expires, a failing or erring result the waiver covers counts as `waived`, not as a failure, and\nnot as a pass either. `expiresAt` must be in the future and at most `WaiverList.maxDays` days away (400\notherwise).\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/WaiverInput"
              },
              "example": {
                "policyId": "0f8fad5b-d9cb-469f-a165-70867728950e",
                "ruleId": "hardening-index",
                "hostRecordId": "0f8fad5b-d9cb-469f-a165-70867728950e",
                "reason": "Legacy kernel until the hardware is replaced (ticket OPS-123)",
                "expiresAt": "2027-03-31T00:00:00.000Z"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The waiver.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Waiver"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/waivers/bulk": {
      "post": {
        "operationId": "createWaivers",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Waive a rule (or a whole policy) for many hosts at once",
        "description": "One waiver per selected host, in one transaction: all are created or none. At most 10,000 hosts (400\nbeyond: waive for a group or the fleet instead). Checks as `createWaiver`.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/WaiverBulkInput"
              },
              "example": {
                "policyId": "0f8fad5b-d9cb-469f-a165-70867728950e",
                "ruleId": "firewall-active",
                "reason": "Web tier firewalled upstream (ticket OPS-321)",
                "expiresAt": "2027-03-31T00:00:00.000Z",
                "hosts": {
                  "filters": {
                    "group": "webservers"
                  }
                }
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "How many waivers were created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/WaiverBulkResult"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/waivers/{waiverId}": {
      "delete": {
        "operationId": "deleteWaiver",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "description": "Requires the `operator` role.",
        "summary": "Delete a waiver",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "waiverId",
            "in": "path",
            "required": true,
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "responses": {
          "204": {
            "description": "Deleted."
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/webhooks": {
      "get": {
        "operationId": "listWebhooks",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "description": "Requires the `viewer` role.",
        "summary": "List webhook subscriptions",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The subscriptions.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/WebhookList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createWebhook",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Subscribe a URL to events",
        "description": "The secret that signs deliveries (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`,\nHMAC-SHA256) is shown in this answer only. URLs naming an address that is not public unicast (loopback, private,\nlink-local, or any other block of the IANA IPv4 and IPv6 special-purpose registries, in any spelling, such as\n`http://2130706433/`; for IPv6 only global unicast, `2000::/3`) or `localhost` are refused with a 400 saying\nwhy, unless the server allows them (`--webhook-allow-private`).\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/WebhookInput"
              },
              "example": {
                "url": "https://hooks.example.org/audit",
                "events": [
                  "host.regressed",
                  "host.noncompliant",
                  "uploads.refused"
                ],
                "format": "standard"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The subscription and its secret.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/NewWebhook"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/webhooks/{webhookId}": {
      "get": {
        "operationId": "getWebhook",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "description": "Requires the `viewer` role.",
        "summary": "Get a webhook subscription",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          }
        ],
        "responses": {
          "200": {
            "description": "The subscription.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Webhook"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "put": {
        "operationId": "updateWebhook",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "description": "Requires the `admin` role.",
        "summary": "Replace a webhook subscription (its secret stays)",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/WebhookInput"
              },
              "example": {
                "url": "https://hooks.example.org/audit",
                "events": [
                  "host.regressed",
                  "host.noncompliant",
                  "uploads.refused"
                ],
                "format": "standard"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The subscription.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Webhook"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "delete": {
        "operationId": "deleteWebhook",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "description": "Requires the `admin` role.",
        "summary": "Delete a webhook subscription and its delivery log",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          }
        ],
        "responses": {
          "204": {
            "description": "Deleted."
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/webhooks/{webhookId}/test": {
      "post": {
        "operationId": "sendTestWebhookEvent",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Send a test event to the subscription",
        "description": "Queues a `webhook.test` event for this subscription alone (whatever events it chose, even when disabled),\ndelivered and retried like any other, so an operator can check the receiver and its signature check.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          }
        ],
        "responses": {
          "202": {
            "description": "The delivery queued.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/WebhookDelivery"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/webhooks/{webhookId}/deliveries": {
      "get": {
        "operationId": "listWebhookDeliveries",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The delivery log of a subscription",
        "description": "Newest first: each event sent (or to be sent) to the subscription, with its attempts and last error.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/Offset"
          },
          {
            "name": "status",
            "in": "query",
            "schema": {
              "$ref": "#/components/schemas/DeliveryStatus"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One page of deliveries.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/WebhookDeliveryPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": {
      "post": {
        "operationId": "redeliverWebhookDelivery",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Send a delivery again",
        "description": "Queues the delivery to be sent again now, whatever its status; its attempts start again from zero.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "name": "deliveryId",
            "in": "path",
            "required": true,
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The delivery, queued.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/WebhookDelivery"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/exports/hosts": {
      "get": {
        "operationId": "exportHosts",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The hosts of the list, filtered and sorted as the list is, with their latest index, findings counts, key label, compliance and failing rules",
        "description": "The hosts `listHosts` would list with the same filters and order, every page of them: the same query\nparameters, read by the same query, so a filtered view exports exactly the hosts it counts (its `total`).\nWithout filters, every host the list shows. Streamed from the database a page at a time, so a fleet of any size costs the\nserver the same memory. Each host carries its license key's label (`keyLabel`, null when the key has none)\nand the rules it fails (`failingRules`: `fail` or `error` results a waiver does not cover, as\n`policyName/ruleId`, by policy name then rule id; an array in JSON, joined by `;` in CSV like groups and tags),\nand its lifecycle state (`state`, `stateSince`). Like the list, it leaves decommissioned hosts out unless the\n`state` filter asks for them.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/AsOf"
          },
          {
            "$ref": "#/components/parameters/HostnameFilter"
          },
          {
            "$ref": "#/components/parameters/KeyIdFilter"
          },
          {
            "$ref": "#/components/parameters/HostIdFilter"
          },
          {
            "$ref": "#/components/parameters/GroupFilter"
          },
          {
            "$ref": "#/components/parameters/TagFilter"
          },
          {
            "$ref": "#/components/parameters/OsFilter"
          },
          {
            "$ref": "#/components/parameters/FindingFilter"
          },
          {
            "$ref": "#/components/parameters/FindingKindFilter"
          },
          {
            "$ref": "#/components/parameters/SeenBefore"
          },
          {
            "$ref": "#/components/parameters/ComplianceFilter"
          },
          {
            "$ref": "#/components/parameters/FailingPolicyFilter"
          },
          {
            "$ref": "#/components/parameters/FailingRuleFilter"
          },
          {
            "$ref": "#/components/parameters/HostRecordIdsFilter"
          },
          {
            "$ref": "#/components/parameters/HostStateFilter"
          },
          {
            "$ref": "#/components/parameters/HostSort"
          },
          {
            "$ref": "#/components/parameters/HostOrder"
          },
          {
            "name": "format",
            "in": "query",
            "description": "`csv` (a header row, then one row per item; a `'` goes before every formula start a spreadsheet would read, `=`, `+`, `-`, `@`, tab or CR, at the start of a cell, of each element of a list cell, and after a `,` or `;` inside a cell) or `json` (an array).",
            "schema": {
              "type": "string",
              "enum": [
                "csv",
                "json"
              ],
              "default": "csv"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The export, streamed (`content-disposition` names a file).",
            "content": {
              "text/csv": {
                "schema": {
                  "type": "string"
                },
                "example": "id,hostname,hostId,keyId,keyLabel,os,lynisVersion,groups,tags,customerName,firstSeen,lastSeen,state,stateSince,reportCount,hardeningIndex,warnings,suggestions,compliance,failingRules\n0f8fad5b-d9cb-469f-a165-70867728950e,web-01,0123456789abcdef0123456789abcdef01234567,7c9e6679-7425-40de-944b-e07fc1f90ae7,Web servers,Debian GNU/Linux 12 (bookworm),3.0.8,webservers,production,acme,2026-11-01T08:00:02.000Z,2026-11-22T13:41:25.000Z,active,2026-11-01T08:00:02.000Z,22,56,1,24,noncompliant,Baseline/firewall;Baseline/no-vulnerable-packages\n"
              },
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/HostExport"
                  }
                },
                "example": [
                  {
                    "id": "0f8fad5b-d9cb-469f-a165-70867728950e",
                    "hostname": "web-01",
                    "hostId": "0123456789abcdef0123456789abcdef01234567",
                    "keyId": "7c9e6679-7425-40de-944b-e07fc1f90ae7",
                    "keyLabel": "Web servers",
                    "os": "Debian GNU/Linux 12 (bookworm)",
                    "lynisVersion": "3.0.8",
                    "groups": [
                      "webservers"
                    ],
                    "tags": [
                      "production"
                    ],
                    "customerName": "acme",
                    "firstSeen": "2026-11-01T08:00:02.000Z",
                    "lastSeen": "2026-11-22T13:41:25.000Z",
                    "reportCount": 22,
                    "hardeningIndex": 56,
                    "warnings": 1,
                    "suggestions": 24,
                    "compliance": "noncompliant",
                    "failingRules": [
                      "Baseline/firewall",
                      "Baseline/no-vulnerable-packages"
                    ]
                  }
                ]
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/exports/findings": {
      "get": {
        "operationId": "exportFindings",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "Every warning and suggestion of every host's latest report",
        "description": "One row per host and finding of its latest report, ordered by host id, kind and test id; streamed like the hosts export.\nThe host filters of `listHosts` apply: only the findings of the hosts the list would show with them (`finding`\nselects hosts, so their other findings come too).\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/HostnameFilter"
          },
          {
            "$ref": "#/components/parameters/KeyIdFilter"
          },
          {
            "$ref": "#/components/parameters/HostIdFilter"
          },
          {
            "$ref": "#/components/parameters/GroupFilter"
          },
          {
            "$ref": "#/components/parameters/TagFilter"
          },
          {
            "$ref": "#/components/parameters/OsFilter"
          },
          {
            "$ref": "#/components/parameters/FindingFilter"
          },
          {
            "$ref": "#/components/parameters/FindingKindFilter"
          },
          {
            "$ref": "#/components/parameters/SeenBefore"
          },
          {
            "$ref": "#/components/parameters/ComplianceFilter"
          },
          {
            "$ref": "#/components/parameters/FailingPolicyFilter"
          },
          {
            "$ref": "#/components/parameters/FailingRuleFilter"
          },
          {
            "$ref": "#/components/parameters/HostRecordIdsFilter"
          },
          {
            "name": "format",
            "in": "query",
            "description": "`csv` (a header row, then one row per item; a `'` goes before every formula start a spreadsheet would read, `=`, `+`, `-`, `@`, tab or CR, at the start of a cell, of each element of a list cell, and after a `,` or `;` inside a cell) or `json` (an array).",
            "schema": {
              "type": "string",
              "enum": [
                "csv",
                "json"
              ],
              "default": "csv"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The export, streamed (`content-disposition` names a file).",
            "content": {
              "text/csv": {
                "schema": {
                  "type": "string"
                },
                "example": "kind,testId,text,hostRecordId,hostname,hostId\nwarning,PKGS-7392,Found one or more vulnerable packages.,0f8fad5b-d9cb-469f-a165-70867728950e,web-01,0123456789abcdef0123456789abcdef01234567\n"
              },
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/FindingExport"
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/exports/hosts/{hostRecordId}/history": {
      "get": {
        "operationId": "exportHostHistory",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "One host's reports, newest first",
        "description": "Every stored report of the host: when it arrived, its hardening index and its counts of warnings and suggestions.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "hostRecordId",
            "in": "path",
            "required": true,
            "schema": {
              "$ref": "#/components/schemas/Id"
            }
          },
          {
            "name": "format",
            "in": "query",
            "description": "`csv` (a header row, then one row per item; a `'` goes before every formula start a spreadsheet would read, `=`, `+`, `-`, `@`, tab or CR, at the start of a cell, of each element of a list cell, and after a `,` or `;` inside a cell) or `json` (an array).",
            "schema": {
              "type": "string",
              "enum": [
                "csv",
                "json"
              ],
              "default": "csv"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The export, streamed (`content-disposition` names a file).",
            "content": {
              "text/csv": {
                "schema": {
                  "type": "string"
                },
                "example": "reportId,receivedAt,lynisVersion,hardeningIndex,warnings,suggestions\n0f8fad5b-d9cb-469f-a165-70867728950e,2026-11-22T13:41:25.000Z,3.0.8,56,1,24\n"
              },
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/HistoryExport"
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/exports/finding-states": {
      "get": {
        "operationId": "exportFindingStates",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The findings with their lifecycle, for a spreadsheet or a data lake",
        "description": "Every finding `listTrackedFindings` would list with the same filters (state, group, kind, test id), oldest\nfirst, streamed a page at a time: host, kind, test id, text, state and since when, owner, due date, accepted\nrisk, first and last seen, resolved at, regressions. CSV (host text neutralised as in every export) or JSON\nLines.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/FindingStateFilter"
          },
          {
            "$ref": "#/components/parameters/GroupFilter"
          },
          {
            "name": "kind",
            "in": "query",
            "schema": {
              "$ref": "#/components/schemas/FindingKind"
            }
          },
          {
            "name": "testId",
            "in": "query",
            "schema": {
              "$ref": "#/components/schemas/TestId"
            }
          },
          {
            "name": "format",
            "in": "query",
            "description": "`csv` (a header row, then one row per finding) or `jsonl` (one JSON object per line).",
            "schema": {
              "type": "string",
              "enum": [
                "csv",
                "jsonl"
              ],
              "default": "csv"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The export, streamed (`content-disposition` names a file).",
            "content": {
              "text/csv": {
                "schema": {
                  "type": "string"
                }
              },
              "application/jsonl": {
                "schema": {
                  "$ref": "#/components/schemas/TrackedFinding"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/compliance/history": {
      "get": {
        "operationId": "getComplianceHistory",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "Compliance and open findings per day or week, over the fleet or one policy, group or customer",
        "description": "One point per interval from `from` to `to` (default: the 30 days before today, UTC), each as of the end of\nits interval: hosts compliant (every rule of every policy in force passes), non-compliant (a rule fails and\nno waiver covers it), accepted (failing only on rules a waiver in force then covers) and unknown (in scope\nbut no result, or a rule errs), and open findings by kind (open, acknowledged and regressed; accepted ones\napart). `policyId` counts one policy only; `group` and `customer` count the hosts of one system group or\ncustomer; `policies` gives the same figures per policy. Past days come from daily snapshots, taken from the\nrecorded transitions once a day is over and never changed after; today's point comes from today's\nprovisional snapshot, refreshed every 5 minutes in the background and taken on the request when none is\nunder 10 minutes old (an actor limited to some hosts gets it computed now). Of the hosts in the actor's\nscope.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/HistoryFrom"
          },
          {
            "$ref": "#/components/parameters/HistoryTo"
          },
          {
            "$ref": "#/components/parameters/HistoryInterval"
          },
          {
            "$ref": "#/components/parameters/HistoryPolicy"
          },
          {
            "$ref": "#/components/parameters/HistoryGroup"
          },
          {
            "$ref": "#/components/parameters/HistoryCustomer"
          }
        ],
        "responses": {
          "200": {
            "description": "The history.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ComplianceHistory"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/exports/compliance-history": {
      "get": {
        "operationId": "exportComplianceHistory",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The compliance history, for a spreadsheet or a data lake",
        "description": "The points `getComplianceHistory` answers with the same parameters, one row per interval and policy (the\nfleet's rows have an empty policy), streamed: CSV or JSON Lines.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/HistoryFrom"
          },
          {
            "$ref": "#/components/parameters/HistoryTo"
          },
          {
            "$ref": "#/components/parameters/HistoryInterval"
          },
          {
            "$ref": "#/components/parameters/HistoryPolicy"
          },
          {
            "$ref": "#/components/parameters/HistoryGroup"
          },
          {
            "$ref": "#/components/parameters/HistoryCustomer"
          },
          {
            "name": "format",
            "in": "query",
            "description": "`csv` (a header row, then one row per interval and policy) or `jsonl` (one JSON object per line).",
            "schema": {
              "type": "string",
              "enum": [
                "csv",
                "jsonl"
              ],
              "default": "csv"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The export, streamed (`content-disposition` names a file).",
            "content": {
              "text/csv": {
                "schema": {
                  "type": "string"
                }
              },
              "application/jsonl": {
                "schema": {
                  "$ref": "#/components/schemas/ComplianceHistoryRow"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/controls": {
      "get": {
        "operationId": "listControls",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The controls of a framework, each with its hosts passing and failing and the evidence behind them",
        "description": "The frameworks known (from imported mapping files and from the `controls` of policy rules), and, for\n`framework`, each of its controls: its title, the Lynis test ids and rule ids mapped to it, its hosts\npassing (every mapped rule passes or is waived, no mapped finding open), failing and unknown, and the\nevidence: each mapped rule's results and each mapped test id's open findings, with up to 20 failing hosts.\nOf the hosts in the actor's scope, decommissioned hosts left out.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "framework",
            "in": "query",
            "description": "The framework, compared case-insensitively (`cis` finds `CIS`). Without it, only the list of frameworks.",
            "schema": {
              "$ref": "#/components/schemas/FrameworkName"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The frameworks and the controls of `framework`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlReport"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/controls/import": {
      "post": {
        "operationId": "importControls",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Import a control mapping file (CSV)",
        "description": "A CSV file with the header `framework,control_id,title,test_ids,rule_ids` (ids separated by spaces or `;`).\nEvery framework the file names is replaced by the file's controls; other frameworks stay. A file with an\nerror changes nothing and answers 400 naming each bad line. `audit-server controls import FILE` does the\nsame on the server's host. At most 5,000 controls and 1 MiB.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "text/csv": {
              "schema": {
                "type": "string",
                "maxLength": 1048576
              },
              "example": "framework,control_id,title,test_ids,rule_ids\nEXAMPLE,1.1,SSH root login is off,SSH-7408,\n"
            }
          }
        },
        "responses": {
          "200": {
            "description": "The frameworks the file replaced.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ControlImportResult"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "413": {
            "$ref": "#/components/responses/ProblemTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/ProblemUnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/digest-schedules": {
      "get": {
        "operationId": "listDigestSchedules",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The scheduled digests",
        "description": "Every digest schedule: its scope (the fleet, a system group or a customer), cadence, recipients, when it\nlast issued a digest and when it is next due.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "responses": {
          "200": {
            "description": "The schedules.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DigestScheduleList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      },
      "post": {
        "operationId": "createDigestSchedule",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Schedule a weekly or monthly digest",
        "description": "A digest of the fleet, a system group or a customer, issued after each week (Monday 00:00 UTC) or month (the\n1st, 00:00 UTC): compliance now and its change over the period, top regressions, oldest open findings and\naccepted risks (findings and waivers) expiring within 14 days. Each digest is sent by email to `recipients`\nwhen the server has SMTP settings, announced by the `digest.ready` webhook event, and readable at its\nprintable page. Recipients' addresses are shown to admins only.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DigestScheduleInput"
              },
              "example": {
                "scope": {
                  "group": "webservers"
                },
                "cadence": "weekly",
                "recipients": [
                  "secops@example.com"
                ]
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The schedule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DigestSchedule"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/digest-schedules/{scheduleId}": {
      "delete": {
        "operationId": "deleteDigestSchedule",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "Stop a scheduled digest",
        "description": "Deletes the schedule; the digests it issued stay readable.\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/ScheduleId"
          }
        ],
        "responses": {
          "204": {
            "description": "Deleted."
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/digest-schedules/{scheduleId}/issue": {
      "post": {
        "operationId": "issueDigest",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Issue a schedule's digest now, for the period up to now",
        "description": "Issues the schedule's digest at once, over the cadence's period ending now (the scheduled one still comes\non time), and sends it as a scheduled one is sent.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/ScheduleId"
          }
        ],
        "responses": {
          "201": {
            "description": "The digest.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Digest"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/digests": {
      "get": {
        "operationId": "listDigests",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "The digests issued, newest first, with their delivery",
        "description": "Every digest issued, newest first, with its delivery: `pending` (waiting for its next attempt), `sent`,\n`failed` (every attempt failed: `lastError` says why; `resendDigest` tries again) or `skipped` (the server\nhas no SMTP settings; the page and the webhook event still carry it).\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/Offset"
          },
          {
            "name": "status",
            "in": "query",
            "description": "Only digests whose delivery has this status.",
            "schema": {
              "$ref": "#/components/schemas/DigestDeliveryStatus"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "One page of digests.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DigestPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/digests/{digestId}": {
      "get": {
        "operationId": "getDigest",
        "tags": [
          "admin"
        ],
        "x-required-role": "viewer",
        "summary": "One digest with its figures",
        "description": "The digest as issued (its figures do not change afterwards), with its delivery.\n\nRequires the `viewer` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/DigestId"
          }
        ],
        "responses": {
          "200": {
            "description": "The digest.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Digest"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/digests/{digestId}/resend": {
      "post": {
        "operationId": "resendDigest",
        "tags": [
          "admin"
        ],
        "x-required-role": "operator",
        "summary": "Send a digest's email again",
        "description": "Queues the digest's email for a new round of attempts (a `failed` one after fixing the SMTP settings, say).\n409 when the server has no SMTP settings.\n\nRequires the `operator` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/DigestId"
          }
        ],
        "responses": {
          "200": {
            "description": "The digest, its delivery `pending`.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Digest"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "404": {
            "$ref": "#/components/responses/ProblemNotFound"
          },
          "409": {
            "$ref": "#/components/responses/ProblemConflict"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    },
    "/api/admin/exports/audit-events": {
      "get": {
        "operationId": "exportAuditEvents",
        "tags": [
          "admin"
        ],
        "x-required-role": "admin",
        "summary": "The audit trail, for a SIEM or an auditor",
        "description": "Every entry `listAuditEvents` would list with the same filters, oldest first, streamed from the database a\npage at a time, with the hashes that chain them. CSV (list and object cells as JSON text, formula starts\nneutralised as in every export) or JSON Lines (one entry per line).\n\nRequires the `admin` role.\n",
        "security": [
          {
            "adminToken": []
          },
          {
            "sessionCookie": []
          }
        ],
        "parameters": [
          {
            "name": "actor",
            "in": "query",
            "description": "Only entries by this actor.",
            "schema": {
              "type": "string",
              "maxLength": 255
            }
          },
          {
            "name": "operation",
            "in": "query",
            "description": "Only entries of this operation.",
            "schema": {
              "type": "string",
              "maxLength": 64
            }
          },
          {
            "name": "outcome",
            "in": "query",
            "description": "Only entries with this outcome.",
            "schema": {
              "$ref": "#/components/schemas/AuditOutcome"
            }
          },
          {
            "name": "since",
            "in": "query",
            "description": "Only entries at or after this time.",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          },
          {
            "name": "until",
            "in": "query",
            "description": "Only entries before this time.",
            "schema": {
              "type": "string",
              "format": "date-time"
            }
          },
          {
            "name": "format",
            "in": "query",
            "description": "`csv` (a header row, then one row per entry) or `jsonl` (one JSON object per line).",
            "schema": {
              "type": "string",
              "enum": [
                "csv",
                "jsonl"
              ],
              "default": "csv"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The export, streamed (`content-disposition` names a file).",
            "content": {
              "text/csv": {
                "schema": {
                  "type": "string"
                }
              },
              "application/jsonl": {
                "schema": {
                  "$ref": "#/components/schemas/AuditEvent"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/ProblemBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/ProblemUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ProblemForbidden"
          },
          "429": {
            "$ref": "#/components/responses/ProblemTooManyRequests"
          },
          "503": {
            "$ref": "#/components/responses/ProblemUnavailable"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "adminToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "An admin token, created with `audit-server admin-tokens create` on the reference server."
      },
      "enrollmentSecret": {
        "type": "http",
        "scheme": "bearer",
        "description": "An enrollment's secret (`POST /api/admin/enrollments`), sent only in this header, never in a URL."
      },
      "sessionCookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": "__Host-audit_session",
        "description": "A person's session, started by `POST /api/admin/session`. A request with it that changes something (any\nmethod but GET, HEAD and OPTIONS) must carry an `Origin` equal to the server's own, or\n`Sec-Fetch-Site: same-origin`; otherwise it is refused with 403 (cross-site request forgery).\n"
      }
    },
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
            "description": "The report, in one of two encodings, told apart by the server:\n- **raw**: the report text as Lynis writes and sends it: UTF-8 `key=value` lines, `#` comments allowed;\n- **base64**: the report bytes in strictly valid base64 (standard alphabet, padded, no line breaks\n  or other whitespace), as the original interface describes.\n\nAnything else is answered 400, and so is a report without a `report_version_major=` or\n`lynis_version=` line and a `finish=true` line (not a finished Lynis report). The value of every\n`license_key=` line is replaced by `[redacted]` before the report is stored.\n",
            "example": "# Lynis Report\nreport_version_major=1\nlynis_version=3.0.8\nhostname=localhost\nfinish=true\n"
          }
        }
      },
      "Id": {
        "type": "string",
        "format": "uuid",
        "example": "0f8fad5b-d9cb-469f-a165-70867728950e"
      },
      "Finding": {
        "type": "object",
        "description": "One `warning[]` or `suggestion[]` line of a Lynis report (`TEST-ID|text|details|solution|`).",
        "required": [
          "testId",
          "text",
          "details",
          "solution"
        ],
        "properties": {
          "testId": {
            "type": "string",
            "example": "PKGS-7392"
          },
          "text": {
            "type": "string",
            "example": "Found one or more vulnerable packages."
          },
          "details": {
            "type": "string",
            "nullable": true,
            "description": "Lynis writes `-` when there are none; that reads `null` here.",
            "example": null
          },
          "solution": {
            "type": "string",
            "nullable": true,
            "example": null
          }
        }
      },
      "AdminSession": {
        "type": "object",
        "description": "Who a request is signed in as, a person (`kind: user`) or an admin token (`kind: token`).",
        "required": [
          "kind",
          "role"
        ],
        "properties": {
          "kind": {
            "type": "string",
            "enum": [
              "user",
              "token"
            ]
          },
          "role": {
            "$ref": "#/components/schemas/AdminRole"
          },
          "email": {
            "type": "string",
            "description": "The person's email (`kind: user`).",
            "example": "ada@example.org"
          },
          "displayName": {
            "type": "string",
            "nullable": true,
            "description": "The person's display name (`kind: user`); `null` when none was given.",
            "example": "Ada Lovelace"
          },
          "tokenId": {
            "$ref": "#/components/schemas/Id"
          },
          "label": {
            "type": "string",
            "nullable": true,
            "description": "The token's label (`kind: token`).",
            "example": "dashboard"
          },
          "prefix": {
            "type": "string",
            "description": "The token's first characters, `adm_` included (`kind: token`).",
            "example": "adm_3f9a2c1e"
          },
          "userId": {
            "allOf": [
              {
                "$ref": "#/components/schemas/Id"
              }
            ],
            "description": "The person's account id (`kind: user`), or a personal token's owner."
          },
          "scope": {
            "$ref": "#/components/schemas/AccessScope"
          }
        }
      },
      "SignInRequest": {
        "type": "object",
        "required": [
          "email",
          "password"
        ],
        "additionalProperties": false,
        "properties": {
          "email": {
            "type": "string",
            "minLength": 1,
            "maxLength": 254,
            "example": "ada@example.org"
          },
          "password": {
            "type": "string",
            "format": "password",
            "minLength": 1,
            "maxLength": 1024,
            "description": "Never logged."
          }
        }
      },
      "ReportDiff": {
        "type": "object",
        "required": [
          "beforeReportId",
          "afterReportId",
          "changes"
        ],
        "properties": {
          "beforeReportId": {
            "type": "string",
            "format": "uuid",
            "nullable": true,
            "description": "The earlier report; `null` when the host sent none before this one.",
            "example": "7c9e6679-7425-40de-944b-e07fc1f90ae7"
          },
          "afterReportId": {
            "$ref": "#/components/schemas/Id"
          },
          "changes": {
            "description": "`null` when there is no earlier report, or either report is not a Lynis report.",
            "oneOf": [
              {
                "$ref": "#/components/schemas/ReportChanges"
              },
              {
                "type": "object",
                "nullable": true,
                "enum": [
                  null
                ]
              }
            ]
          }
        }
      },
      "ReportChanges": {
        "type": "object",
        "description": "What changed between two Lynis reports of a host, from the earlier (`before`) to the later (`after`).\nFindings are compared whole (test id, text, details and solution); keys written as `key[]=` lines are\ncompared as sets of values. `values` holds every key not covered by the other fields.\n",
        "required": [
          "hardeningIndex",
          "warnings",
          "suggestions",
          "packages",
          "vulnerablePackages",
          "values"
        ],
        "properties": {
          "hardeningIndex": {
            "type": "object",
            "required": [
              "before",
              "after"
            ],
            "properties": {
              "before": {
                "type": "integer",
                "nullable": true,
                "example": 64
              },
              "after": {
                "type": "integer",
                "nullable": true,
                "example": 61
              }
            }
          },
          "warnings": {
            "$ref": "#/components/schemas/FindingChanges"
          },
          "suggestions": {
            "$ref": "#/components/schemas/FindingChanges"
          },
          "packages": {
            "type": "object",
            "description": "From `installed_packages_array` (`|name,version|…`).",
            "required": [
              "added",
              "removed",
              "changed"
            ],
            "properties": {
              "added": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/PackageVersion"
                }
              },
              "removed": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/PackageVersion"
                }
              },
              "changed": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "name",
                    "before",
                    "after"
                  ],
                  "properties": {
                    "name": {
                      "type": "string",
                      "example": "openssl"
                    },
                    "before": {
                      "type": "string",
                      "example": "3.0.15-1~deb12u1"
                    },
                    "after": {
                      "type": "string",
                      "example": "3.0.17-1~deb12u2"
                    }
                  }
                }
              }
            }
          },
          "vulnerablePackages": {
            "type": "object",
            "description": "From the `vulnerable_package[]` lines.",
            "required": [
              "added",
              "resolved"
            ],
            "properties": {
              "added": {
                "type": "array",
                "items": {
                  "type": "string"
                },
                "example": [
                  "libssl3"
                ]
              },
              "resolved": {
                "type": "array",
                "items": {
                  "type": "string"
                },
                "example": [
                  "jq"
                ]
              }
            }
          },
          "values": {
            "type": "object",
            "required": [
              "added",
              "removed",
              "changed"
            ],
            "properties": {
              "added": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/ReportValue"
                }
              },
              "removed": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/ReportValue"
                }
              },
              "changed": {
                "type": "array",
                "description": "Keys written once (`key=value`) whose value changed.",
                "items": {
                  "type": "object",
                  "required": [
                    "key",
                    "before",
                    "after"
                  ],
                  "properties": {
                    "key": {
                      "type": "string",
                      "example": "firewall_active"
                    },
                    "before": {
                      "type": "string",
                      "example": "1"
                    },
                    "after": {
                      "type": "string",
                      "example": "0"
                    }
                  }
                }
              }
            }
          }
        }
      },
      "FindingChanges": {
        "type": "object",
        "required": [
          "added",
          "resolved"
        ],
        "properties": {
          "added": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Finding"
            }
          },
          "resolved": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Finding"
            }
          }
        }
      },
      "PackageVersion": {
        "type": "object",
        "required": [
          "name",
          "version"
        ],
        "properties": {
          "name": {
            "type": "string",
            "example": "jq"
          },
          "version": {
            "type": "string",
            "example": "1.6-2.1"
          }
        }
      },
      "ReportValue": {
        "type": "object",
        "description": "One value of a report key; for `key[]=` lines the key is written with its `[]`.",
        "required": [
          "key",
          "value"
        ],
        "properties": {
          "key": {
            "type": "string",
            "example": "network_listen_port[]"
          },
          "value": {
            "type": "string",
            "example": "127.0.0.1:8443|tcp|node|"
          }
        }
      },
      "ReportSummary": {
        "type": "object",
        "description": "What a Lynis report says about its host, read from its `key=value` lines. Every field Lynis did not\nwrite is `null`.\n",
        "required": [
          "lynisVersion",
          "reportVersion",
          "hostname",
          "os",
          "startedAt",
          "endedAt",
          "hardeningIndex",
          "testsPerformed",
          "warnings",
          "suggestions"
        ],
        "properties": {
          "lynisVersion": {
            "type": "string",
            "nullable": true,
            "example": "3.0.8"
          },
          "reportVersion": {
            "type": "string",
            "nullable": true,
            "description": "The report format's version, `major.minor`.",
            "example": "1.0"
          },
          "hostname": {
            "type": "string",
            "nullable": true,
            "example": "web-01"
          },
          "os": {
            "type": "object",
            "required": [
              "name",
              "fullName",
              "version",
              "kernel"
            ],
            "properties": {
              "name": {
                "type": "string",
                "nullable": true,
                "example": "Debian"
              },
              "fullName": {
                "type": "string",
                "nullable": true,
                "example": "Debian GNU/Linux 12 (bookworm)"
              },
              "version": {
                "type": "string",
                "nullable": true,
                "example": "12"
              },
              "kernel": {
                "type": "string",
                "nullable": true,
                "example": "6.1.0-28-amd64"
              }
            }
          },
          "startedAt": {
            "type": "string",
            "nullable": true,
            "description": "When the audit started, as Lynis writes it (`YYYY-MM-DD HH:MM:SS`, the audited host's local time, no zone).",
            "example": "2026-11-22 13:40:33"
          },
          "endedAt": {
            "type": "string",
            "nullable": true,
            "description": "When the audit ended, written like `startedAt`.",
            "example": "2026-11-22 13:41:24"
          },
          "hardeningIndex": {
            "type": "integer",
            "nullable": true,
            "minimum": 0,
            "maximum": 100,
            "example": 56
          },
          "testsPerformed": {
            "type": "integer",
            "nullable": true,
            "minimum": 0,
            "example": 235
          },
          "warnings": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Finding"
            }
          },
          "suggestions": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Finding"
            }
          }
        }
      },
      "Host": {
        "type": "object",
        "description": "One `hostid` under one license key. Its host name, OS, Lynis version and latest hardening index come from\nits newest report. `hostId2` is the newest report's; each report keeps its own.\n",
        "required": [
          "id",
          "keyId",
          "hostId",
          "hostId2",
          "hostname",
          "os",
          "lynisVersion",
          "firstSeen",
          "lastSeen",
          "reportCount",
          "latestReportId",
          "latestHardeningIndex",
          "latestWarningCount",
          "latestSuggestionCount",
          "groups",
          "tags",
          "customerName",
          "hostnameAlias",
          "compliance",
          "identityChange",
          "state",
          "stateSince",
          "stateReason",
          "machineId",
          "autoPurge"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "keyId": {
            "$ref": "#/components/schemas/Id"
          },
          "hostId": {
            "$ref": "#/components/schemas/HostId"
          },
          "hostId2": {
            "type": "string",
            "nullable": true,
            "example": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
          },
          "hostname": {
            "type": "string",
            "nullable": true,
            "example": "web-01"
          },
          "os": {
            "type": "string",
            "nullable": true,
            "example": "Debian GNU/Linux 12 (bookworm)"
          },
          "lynisVersion": {
            "type": "string",
            "nullable": true,
            "example": "3.0.8"
          },
          "firstSeen": {
            "type": "string",
            "format": "date-time",
            "example": "2026-11-01T08:00:02.000Z"
          },
          "lastSeen": {
            "type": "string",
            "format": "date-time",
            "example": "2026-11-22T13:41:25.000Z"
          },
          "reportCount": {
            "type": "integer",
            "minimum": 0,
            "description": "Reports of this host currently stored.",
            "example": 22
          },
          "latestReportId": {
            "type": "string",
            "format": "uuid",
            "nullable": true,
            "example": "0f8fad5b-d9cb-469f-a165-70867728950e"
          },
          "latestHardeningIndex": {
            "type": "integer",
            "nullable": true,
            "example": 56
          },
          "latestWarningCount": {
            "type": "integer",
            "nullable": true,
            "description": "Warnings in the newest report; `null` when it is not a Lynis report.",
            "example": 1
          },
          "latestSuggestionCount": {
            "type": "integer",
            "nullable": true,
            "example": 24
          },
          "groups": {
            "type": "array",
            "description": "The newest report's `system-groups=` (from the Lynis profile), split at commas, trimmed, empty ones dropped.",
            "items": {
              "type": "string",
              "example": "webservers"
            }
          },
          "tags": {
            "type": "array",
            "description": "The newest report's `tags=`, split like `groups`.",
            "items": {
              "type": "string",
              "example": "production"
            }
          },
          "customerName": {
            "type": "string",
            "nullable": true,
            "description": "The newest report's `system-customer-name=`.",
            "example": "acme"
          },
          "hostnameAlias": {
            "type": "string",
            "nullable": true,
            "description": "The newest report's `hostname_alias=`.",
            "example": "web-01.example.org"
          },
          "compliance": {
            "$ref": "#/components/schemas/HostComplianceState"
          },
          "identityChange": {
            "$ref": "#/components/schemas/HostIdentityChange"
          },
          "state": {
            "$ref": "#/components/schemas/HostState"
          },
          "stateSince": {
            "type": "string",
            "format": "date-time",
            "description": "When the host entered its state (its first report, for a host always active).",
            "example": "2026-11-01T08:00:02.000Z"
          },
          "stateReason": {
            "$ref": "#/components/schemas/HostStateReason"
          },
          "machineId": {
            "type": "string",
            "nullable": true,
            "description": "The newest report's `machineid=` (from `/etc/machine-id`), which identity merge compares.",
            "example": "4c4c4544004a4d10804cb2c04f4e3232"
          },
          "autoPurge": {
            "type": "boolean",
            "description": "The newest report says `allow-auto-purge=1` (a short-lived system, from the Lynis profile's\n`allow-auto-purge=yes`): the host is decommissioned after a short time without a report.\n",
            "example": false
          }
        }
      },
      "HostState": {
        "type": "string",
        "enum": [
          "active",
          "stale",
          "decommissioned"
        ],
        "description": "`active`: reporting. `stale`: no report for longer than the stale threshold (7 days by default, or its\nsystem group's); still counted in every figure. `decommissioned`: taken out of every fleet figure,\ncompliance percentage, chart and default list, by an operator or automatically (its group's\n`expireAfter`, or `allow-auto-purge=1` and no report within the auto-purge window); a report makes it\nactive again. A deleted host is gone: only the audit trail remembers it.\n",
        "example": "active"
      },
      "HostStateReason": {
        "type": "string",
        "enum": [
          "reporting",
          "no-report",
          "operator",
          "group-expiry",
          "auto-purge"
        ],
        "description": "Why the host is in its state: `reporting` (a report arrived), `no-report` (stale), `operator` (an\noperator decommissioned or reactivated it), `group-expiry` (its group's `expireAfter` passed without a\nreport), `auto-purge` (`allow-auto-purge=1` and no report within the auto-purge window).\n",
        "example": "reporting"
      },
      "HostMergeInput": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "hostRecordId"
        ],
        "description": "`hostRecordId`: the host to merge into this one; it disappears.",
        "properties": {
          "hostRecordId": {
            "$ref": "#/components/schemas/Id"
          }
        }
      },
      "HostStateChangeInput": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "action",
          "hosts"
        ],
        "properties": {
          "action": {
            "type": "string",
            "enum": [
              "decommission",
              "reactivate"
            ]
          },
          "hosts": {
            "$ref": "#/components/schemas/HostSelection"
          }
        }
      },
      "HostStateChangeResult": {
        "type": "object",
        "required": [
          "changed",
          "hosts"
        ],
        "properties": {
          "changed": {
            "type": "integer",
            "description": "Hosts whose state changed.",
            "example": 12
          },
          "hosts": {
            "type": "integer",
            "description": "Hosts selected.",
            "example": 14
          }
        }
      },
      "HostIdentityChange": {
        "type": "object",
        "nullable": true,
        "description": "A report for this host carried another `hostid2` than its last one, and no operator has accepted it yet\n(`null`: none). Anyone holding the key can report as any host under it, so this may be a reinstalled host\n(a new SSH host key) or another machine reporting as this one. Changes back and forth between the same\ntwo values keep the flag as it is.\n",
        "required": [
          "previousHostId2",
          "hostId2",
          "at",
          "refused"
        ],
        "properties": {
          "previousHostId2": {
            "type": "string",
            "nullable": true,
            "description": "The `hostid2` the host had.",
            "example": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
          },
          "hostId2": {
            "type": "string",
            "nullable": true,
            "description": "The `hostid2` the report carried (`null`: it sent none).",
            "example": "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
          },
          "at": {
            "type": "string",
            "format": "date-time",
            "description": "When the change was first seen.",
            "example": "2026-11-22T13:41:25.000Z"
          },
          "refused": {
            "type": "boolean",
            "description": "The report was refused (strict identity mode) rather than stored.",
            "example": false
          }
        }
      },
      "HostIdentityAcceptance": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "hostId2"
        ],
        "properties": {
          "hostId2": {
            "type": "string",
            "nullable": true,
            "maxLength": 255,
            "description": "The `hostid2` to accept, as `Host.identityChange.hostId2` shows it.",
            "example": "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
          }
        }
      },
      "HostComplianceState": {
        "type": "string",
        "enum": [
          "compliant",
          "noncompliant",
          "waived",
          "unknown"
        ],
        "description": "A host over every enabled policy that applies to it, from its worst rule result (`HostCompliance.status`):\n`noncompliant` when a rule fails or cannot be evaluated (`fail`, `error`), else `waived` when a failure is\nwaived, else `compliant` when every rule passes; `unknown` when no policy applies or none was evaluated yet.\n",
        "example": "noncompliant"
      },
      "FacetField": {
        "type": "string",
        "enum": [
          "group",
          "tag",
          "os",
          "key",
          "customer"
        ],
        "description": "A host field the list filters by (`key` is the license key, `customer` the `system-customer-name=`)."
      },
      "FacetValue": {
        "type": "object",
        "required": [
          "value",
          "label",
          "hosts"
        ],
        "properties": {
          "value": {
            "type": "string",
            "description": "The value the filter takes (for `key`, the key's id).",
            "example": "webservers"
          },
          "label": {
            "type": "string",
            "nullable": true,
            "description": "For `key`, the key's label; else null.",
            "example": null
          },
          "hosts": {
            "type": "integer",
            "description": "Hosts whose latest report carries the value.",
            "example": 421
          }
        }
      },
      "Facets": {
        "type": "object",
        "required": [
          "group",
          "tag",
          "os",
          "key",
          "customer"
        ],
        "properties": {
          "group": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FacetValue"
            }
          },
          "tag": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FacetValue"
            }
          },
          "os": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FacetValue"
            }
          },
          "key": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FacetValue"
            }
          },
          "customer": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FacetValue"
            }
          }
        }
      },
      "HostPage": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Page"
          },
          {
            "type": "object",
            "required": [
              "items"
            ],
            "properties": {
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Host"
                }
              }
            }
          }
        ]
      },
      "HardeningPoint": {
        "type": "object",
        "required": [
          "reportId",
          "receivedAt",
          "hardeningIndex"
        ],
        "properties": {
          "reportId": {
            "$ref": "#/components/schemas/Id"
          },
          "receivedAt": {
            "type": "string",
            "format": "date-time",
            "example": "2026-11-22T13:41:25.000Z"
          },
          "hardeningIndex": {
            "type": "integer",
            "nullable": true,
            "example": 56
          }
        }
      },
      "HostDetail": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Host"
          },
          {
            "type": "object",
            "required": [
              "hardeningHistory"
            ],
            "properties": {
              "hardeningHistory": {
                "type": "array",
                "description": "The hardening index of the host's newest reports, newest first.",
                "items": {
                  "$ref": "#/components/schemas/HardeningPoint"
                }
              }
            }
          }
        ]
      },
      "ReportMeta": {
        "type": "object",
        "required": [
          "id",
          "hostRecordId",
          "keyId",
          "hostId",
          "hostId2",
          "receivedAt",
          "encoding",
          "size",
          "sha256",
          "hostname",
          "lynisVersion",
          "hardeningIndex",
          "warningCount",
          "suggestionCount"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "hostRecordId": {
            "$ref": "#/components/schemas/Id"
          },
          "keyId": {
            "$ref": "#/components/schemas/Id"
          },
          "hostId": {
            "$ref": "#/components/schemas/HostId"
          },
          "hostId2": {
            "type": "string",
            "nullable": true,
            "example": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
          },
          "receivedAt": {
            "type": "string",
            "format": "date-time",
            "example": "2026-11-22T13:41:25.000Z"
          },
          "encoding": {
            "type": "string",
            "enum": [
              "raw",
              "base64"
            ],
            "description": "How the `data` field arrived."
          },
          "size": {
            "type": "integer",
            "description": "Bytes of the report as the collector sent it (after base64 decoding).",
            "example": 42733
          },
          "sha256": {
            "type": "string",
            "description": "SHA-256 of the report as the collector sent it, before the key was redacted.",
            "example": "9f2c8e0b5c1f4d7a3e6b2a1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e"
          },
          "hostname": {
            "type": "string",
            "nullable": true,
            "example": "web-01"
          },
          "lynisVersion": {
            "type": "string",
            "nullable": true,
            "example": "3.0.8"
          },
          "hardeningIndex": {
            "type": "integer",
            "nullable": true,
            "example": 56
          },
          "warningCount": {
            "type": "integer",
            "nullable": true,
            "description": "`null` when the report is not a Lynis report, like every summary field.",
            "example": 1
          },
          "suggestionCount": {
            "type": "integer",
            "nullable": true,
            "example": 2
          }
        }
      },
      "ReportPage": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Page"
          },
          {
            "type": "object",
            "required": [
              "items"
            ],
            "properties": {
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/ReportMeta"
                }
              }
            }
          }
        ]
      },
      "ReportDetail": {
        "allOf": [
          {
            "$ref": "#/components/schemas/ReportMeta"
          },
          {
            "type": "object",
            "required": [
              "summary"
            ],
            "properties": {
              "summary": {
                "description": "`null` when the report is not a Lynis report.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/ReportSummary"
                  },
                  {
                    "type": "object",
                    "nullable": true,
                    "enum": [
                      null
                    ]
                  }
                ]
              }
            }
          }
        ]
      },
      "Page": {
        "type": "object",
        "required": [
          "total",
          "limit",
          "offset"
        ],
        "properties": {
          "total": {
            "type": "integer",
            "description": "How many items match, over all pages.",
            "example": 1
          },
          "limit": {
            "type": "integer",
            "example": 50
          },
          "offset": {
            "type": "integer",
            "example": 0
          }
        }
      },
      "LicenseKeyInfo": {
        "type": "object",
        "description": "A license key as operators see it. The key itself is never shown again after it was created.",
        "required": [
          "id",
          "label",
          "prefix",
          "state",
          "createdAt",
          "expiresAt",
          "lastUsedAt",
          "lastUploadAt",
          "newHostsPerDay",
          "maxHosts"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "label": {
            "type": "string",
            "nullable": true,
            "example": "web servers"
          },
          "prefix": {
            "type": "string",
            "description": "The key's first characters, to tell keys apart.",
            "example": "3f9a2c1e"
          },
          "state": {
            "type": "string",
            "enum": [
              "valid",
              "revoked",
              "expired"
            ]
          },
          "createdAt": {
            "type": "string",
            "format": "date-time",
            "example": "2026-11-01T08:00:00.000Z"
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true,
            "example": null
          },
          "lastUsedAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true,
            "description": "Last valid license check or upload; servers write it in batches, so it can lag by a minute.",
            "example": "2026-11-22T13:41:25.000Z"
          },
          "lastUploadAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true,
            "example": "2026-11-22T13:41:25.000Z"
          },
          "newHostsPerDay": {
            "$ref": "#/components/schemas/NewHostsPerDay"
          },
          "maxHosts": {
            "$ref": "#/components/schemas/MaxHosts"
          }
        }
      },
      "NewHostsPerDay": {
        "type": "integer",
        "nullable": true,
        "minimum": 0,
        "maximum": 100000000,
        "description": "Most hosts new to this key that may enroll per day (UTC); `null`: the server's default\n(`--key-new-hosts-per-day`, 10,000 unless set). Reports from known hosts are never refused by it.\n",
        "example": null
      },
      "MaxHosts": {
        "type": "integer",
        "nullable": true,
        "minimum": 0,
        "maximum": 100000000,
        "description": "Most hosts this key may have; `null`: no maximum.",
        "example": null
      },
      "LicenseKeySettings": {
        "type": "object",
        "additionalProperties": false,
        "minProperties": 1,
        "description": "The settings of a key to change; those left out stay as they are.",
        "properties": {
          "newHostsPerDay": {
            "$ref": "#/components/schemas/NewHostsPerDay"
          },
          "maxHosts": {
            "$ref": "#/components/schemas/MaxHosts"
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true,
            "description": "After this time the key counts as revoked; `null` removes the expiry. A time already past expires the\nkey at once (accepted rather than refused: \"expire now\" keeps the key's history readable as expired,\nand setting a later time or `null` makes it valid again, which a revocation never does).\n",
            "example": "2027-11-01T00:00:00Z"
          }
        }
      },
      "LicenseKeyList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LicenseKeyInfo"
            }
          }
        }
      },
      "NewLicenseKeyRequest": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "label": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
            "example": "web servers"
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time",
            "description": "After this time the key counts as revoked.",
            "example": "2027-11-01T00:00:00Z"
          },
          "newHostsPerDay": {
            "$ref": "#/components/schemas/NewHostsPerDay"
          },
          "maxHosts": {
            "$ref": "#/components/schemas/MaxHosts"
          }
        }
      },
      "NewLicenseKey": {
        "type": "object",
        "required": [
          "key",
          "licenseKey"
        ],
        "properties": {
          "key": {
            "$ref": "#/components/schemas/LicenseKeyInfo"
          },
          "licenseKey": {
            "type": "string",
            "description": "The key itself, for the hosts' Lynis profiles (`license-key=`). Shown only in this answer.",
            "example": "3f9a2c1e-5b7d4e8f-0a1b2c3d-4e5f6a7b-8c9d0e1f-2a3b4c5d"
          }
        }
      },
      "RotateLicenseKeyRequest": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "graceSeconds": {
            "type": "integer",
            "minimum": 0,
            "maximum": 31536000,
            "default": 86400,
            "description": "How long the old key keeps working."
          }
        }
      },
      "RotatedLicenseKey": {
        "allOf": [
          {
            "$ref": "#/components/schemas/NewLicenseKey"
          },
          {
            "type": "object",
            "required": [
              "previous"
            ],
            "properties": {
              "previous": {
                "$ref": "#/components/schemas/LicenseKeyInfo"
              }
            }
          }
        ]
      },
      "LabelFilter": {
        "type": "string",
        "minLength": 1,
        "maxLength": 255,
        "pattern": "^[^\\u0000-\\u001F\\u007F]+$",
        "example": "webservers"
      },
      "TestId": {
        "type": "string",
        "minLength": 1,
        "maxLength": 64,
        "pattern": "^[^\\u0000-\\u001F\\u007F]+$",
        "description": "A Lynis test id, as a report's `warning[]` or `suggestion[]` line names it.",
        "example": "PKGS-7392"
      },
      "FindingState": {
        "type": "string",
        "enum": [
          "open",
          "acknowledged",
          "accepted",
          "resolved",
          "regressed"
        ],
        "description": "`open`: first seen and not yet handled. `acknowledged`: someone owns it (optionally by a due date).\n`accepted`: the risk is accepted, with a reason, an approver and an expiry; it reopens by itself when the\nexpiry passes. `resolved`: a later report of the host no longer has it (set by the server). `regressed`:\nseen again after being resolved.\n",
        "example": "open"
      },
      "TrackedFinding": {
        "type": "object",
        "description": "A warning or suggestion of one host, by kind and test id, across its reports: its state and history.\n`text` is the host's, unchecked: show it only as text.\n",
        "required": [
          "id",
          "hostRecordId",
          "hostname",
          "kind",
          "testId",
          "text",
          "state",
          "stateSince",
          "ownerUserId",
          "ownerEmail",
          "dueAt",
          "acceptance",
          "firstSeen",
          "lastSeen",
          "resolvedAt",
          "regressions"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "hostRecordId": {
            "$ref": "#/components/schemas/Id"
          },
          "hostname": {
            "type": "string",
            "nullable": true,
            "example": "web-01"
          },
          "kind": {
            "$ref": "#/components/schemas/FindingKind"
          },
          "testId": {
            "type": "string",
            "example": "SSH-7408"
          },
          "text": {
            "type": "string",
            "example": "Consider hardening SSH configuration"
          },
          "state": {
            "$ref": "#/components/schemas/FindingState"
          },
          "stateSince": {
            "type": "string",
            "format": "date-time"
          },
          "ownerUserId": {
            "type": "string",
            "format": "uuid",
            "nullable": true
          },
          "ownerEmail": {
            "type": "string",
            "nullable": true,
            "example": "grace@example.org"
          },
          "dueAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          },
          "acceptance": {
            "$ref": "#/components/schemas/FindingAcceptance"
          },
          "firstSeen": {
            "type": "string",
            "format": "date-time"
          },
          "lastSeen": {
            "type": "string",
            "format": "date-time",
            "description": "The newest report of the host that had it."
          },
          "resolvedAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          },
          "regressions": {
            "type": "integer",
            "minimum": 0,
            "description": "Times it came back after being resolved."
          }
        }
      },
      "FindingAcceptance": {
        "type": "object",
        "nullable": true,
        "description": "The accepted risk while the finding is `accepted` (null otherwise).",
        "required": [
          "reason",
          "requestedBy",
          "approverUserId",
          "approverEmail",
          "expiresAt"
        ],
        "properties": {
          "reason": {
            "type": "string"
          },
          "requestedBy": {
            "type": "string",
            "nullable": true,
            "description": "Who asked to accept it (a person's email, or a token's name)."
          },
          "approverUserId": {
            "type": "string",
            "format": "uuid"
          },
          "approverEmail": {
            "type": "string",
            "nullable": true
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time"
          }
        }
      },
      "FindingUpdate": {
        "type": "object",
        "additionalProperties": false,
        "minProperties": 1,
        "properties": {
          "state": {
            "type": "string",
            "enum": [
              "acknowledged",
              "accepted",
              "open"
            ]
          },
          "ownerUserId": {
            "type": "string",
            "format": "uuid",
            "nullable": true
          },
          "dueAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          },
          "reason": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1000
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time"
          },
          "approverUserId": {
            "type": "string",
            "format": "uuid"
          }
        }
      },
      "PersonList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Person"
            }
          }
        }
      },
      "Person": {
        "type": "object",
        "required": [
          "id",
          "email",
          "name"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "email": {
            "type": "string",
            "example": "grace@example.org"
          },
          "name": {
            "type": "string",
            "nullable": true,
            "example": "Grace Hopper"
          }
        }
      },
      "FixTimes": {
        "type": "object",
        "required": [
          "resolved",
          "meanHours",
          "medianHours"
        ],
        "properties": {
          "resolved": {
            "type": "integer",
            "description": "Findings resolved in the window."
          },
          "meanHours": {
            "type": "number",
            "nullable": true,
            "description": "Mean hours from first seen to resolved; null when none was resolved."
          },
          "medianHours": {
            "type": "number",
            "nullable": true
          }
        }
      },
      "FixTimesBy": {
        "type": "object",
        "required": [
          "key",
          "resolved",
          "meanHours",
          "medianHours"
        ],
        "properties": {
          "key": {
            "type": "string",
            "description": "The kind, test id, group or customer the figures are of."
          },
          "resolved": {
            "type": "integer"
          },
          "meanHours": {
            "type": "number",
            "nullable": true
          },
          "medianHours": {
            "type": "number",
            "nullable": true
          }
        }
      },
      "TimeToFix": {
        "type": "object",
        "required": [
          "from",
          "to",
          "overall",
          "byKind",
          "byTestId",
          "byGroup",
          "byCustomer",
          "lastWeek",
          "oldestOpen"
        ],
        "properties": {
          "from": {
            "type": "string",
            "format": "date-time"
          },
          "to": {
            "type": "string",
            "format": "date-time"
          },
          "overall": {
            "$ref": "#/components/schemas/FixTimes"
          },
          "byKind": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FixTimesBy"
            }
          },
          "byTestId": {
            "type": "array",
            "maxItems": 20,
            "items": {
              "$ref": "#/components/schemas/FixTimesBy"
            }
          },
          "byGroup": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FixTimesBy"
            }
          },
          "byCustomer": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FixTimesBy"
            }
          },
          "lastWeek": {
            "type": "object",
            "description": "Findings that changed in the 7 days before `to`.",
            "required": [
              "opened",
              "resolved",
              "regressed"
            ],
            "properties": {
              "opened": {
                "type": "integer"
              },
              "resolved": {
                "type": "integer"
              },
              "regressed": {
                "type": "integer"
              }
            }
          },
          "oldestOpen": {
            "type": "array",
            "maxItems": 10,
            "description": "The open, acknowledged and regressed findings first seen longest ago.",
            "items": {
              "$ref": "#/components/schemas/TrackedFinding"
            }
          }
        }
      },
      "TrackedFindingList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/TrackedFinding"
            }
          }
        }
      },
      "TrackedFindingPage": {
        "type": "object",
        "required": [
          "items",
          "total",
          "limit",
          "offset"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/TrackedFinding"
            }
          },
          "total": {
            "type": "integer"
          },
          "limit": {
            "type": "integer"
          },
          "offset": {
            "type": "integer"
          }
        }
      },
      "FindingKind": {
        "type": "string",
        "enum": [
          "warning",
          "suggestion"
        ],
        "example": "warning"
      },
      "FindingCount": {
        "type": "object",
        "required": [
          "kind",
          "testId",
          "text",
          "hosts"
        ],
        "properties": {
          "kind": {
            "$ref": "#/components/schemas/FindingKind"
          },
          "testId": {
            "type": "string",
            "example": "PKGS-7392"
          },
          "text": {
            "type": "string",
            "description": "The finding's text on one of the hosts (texts of one test id can differ from host to host).",
            "example": "Found one or more vulnerable packages."
          },
          "hosts": {
            "type": "integer",
            "minimum": 1,
            "description": "Hosts whose latest report has it.",
            "example": 12
          }
        }
      },
      "FindingGroupPage": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Page"
          },
          {
            "type": "object",
            "required": [
              "items"
            ],
            "properties": {
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/FindingCount"
                }
              }
            }
          }
        ]
      },
      "LabelCount": {
        "type": "object",
        "required": [
          "name",
          "hosts"
        ],
        "properties": {
          "name": {
            "type": "string",
            "nullable": true,
            "description": "`null` for hosts whose report does not say.",
            "example": "Debian GNU/Linux 12 (bookworm)"
          },
          "hosts": {
            "type": "integer",
            "minimum": 1,
            "example": 310
          }
        }
      },
      "Overview": {
        "type": "object",
        "required": [
          "generatedAt",
          "staleDays",
          "hosts",
          "hardeningIndex",
          "hardeningTrend",
          "topWarnings",
          "topSuggestions",
          "operatingSystems",
          "lynisVersions",
          "uploadsPerDay",
          "staleHosts",
          "compliance"
        ],
        "properties": {
          "asOf": {
            "type": "string",
            "format": "date-time",
            "nullable": true,
            "example": null,
            "description": "The moment answered for when `at` was given (null: now). As of a past moment, `hardeningTrend` and\n`uploadsPerDay` end then, `staleHosts` is empty and `hosts.stale` and `hosts.decommissioned` are 0 (host\nstates are kept now only), and findings and compliance come from the transitions recorded up to then.\n"
          },
          "generatedAt": {
            "type": "string",
            "format": "date-time",
            "example": "2026-11-23T10:00:00.000Z"
          },
          "staleDays": {
            "type": "integer",
            "description": "The server's default stale threshold in days (system groups may have their own).",
            "example": 7
          },
          "hosts": {
            "type": "object",
            "required": [
              "total",
              "seenLast24h",
              "seenLast7d",
              "stale",
              "decommissioned"
            ],
            "properties": {
              "total": {
                "type": "integer",
                "description": "Hosts not decommissioned (every other figure leaves decommissioned hosts out too).",
                "example": 512
              },
              "seenLast24h": {
                "type": "integer",
                "example": 480
              },
              "seenLast7d": {
                "type": "integer",
                "example": 505
              },
              "stale": {
                "type": "integer",
                "description": "Hosts in the `stale` state.",
                "example": 7
              },
              "decommissioned": {
                "type": "integer",
                "description": "Decommissioned hosts, left out of every other figure.",
                "example": 3
              }
            }
          },
          "hardeningIndex": {
            "type": "object",
            "description": "Over the hosts' latest hardening index; hosts without one are counted in `unknown` only.",
            "required": [
              "average",
              "median",
              "unknown",
              "distribution"
            ],
            "properties": {
              "average": {
                "type": "number",
                "nullable": true,
                "example": 64.2
              },
              "median": {
                "type": "number",
                "nullable": true,
                "example": 65
              },
              "unknown": {
                "type": "integer",
                "example": 2
              },
              "distribution": {
                "type": "array",
                "description": "Ten buckets, 0–9, 10–19, …, 90–100, each with its number of hosts (zero included).",
                "minItems": 10,
                "maxItems": 10,
                "example": [
                  {
                    "from": 0,
                    "to": 9,
                    "hosts": 0
                  },
                  {
                    "from": 10,
                    "to": 19,
                    "hosts": 0
                  },
                  {
                    "from": 20,
                    "to": 29,
                    "hosts": 1
                  },
                  {
                    "from": 30,
                    "to": 39,
                    "hosts": 3
                  },
                  {
                    "from": 40,
                    "to": 49,
                    "hosts": 12
                  },
                  {
                    "from": 50,
                    "to": 59,
                    "hosts": 40
                  },
                  {
                    "from": 60,
                    "to": 69,
                    "hosts": 120
                  },
                  {
                    "from": 70,
                    "to": 79,
                    "hosts": 204
                  },
                  {
                    "from": 80,
                    "to": 89,
                    "hosts": 98
                  },
                  {
                    "from": 90,
                    "to": 100,
                    "hosts": 32
                  }
                ],
                "items": {
                  "type": "object",
                  "required": [
                    "from",
                    "to",
                    "hosts"
                  ],
                  "properties": {
                    "from": {
                      "type": "integer",
                      "example": 60
                    },
                    "to": {
                      "type": "integer",
                      "description": "Inclusive.",
                      "example": 69
                    },
                    "hosts": {
                      "type": "integer",
                      "example": 204
                    }
                  }
                }
              }
            }
          },
          "hardeningTrend": {
            "type": "array",
            "description": "For each of the last 90 days (UTC) with reports, oldest first, the average hardening index of the reports received that day.",
            "items": {
              "type": "object",
              "required": [
                "day",
                "average",
                "reports"
              ],
              "properties": {
                "day": {
                  "type": "string",
                  "format": "date",
                  "example": "2026-11-22"
                },
                "average": {
                  "type": "number",
                  "nullable": true,
                  "example": 63.8
                },
                "reports": {
                  "type": "integer",
                  "example": 498
                }
              }
            }
          },
          "topWarnings": {
            "type": "array",
            "maxItems": 10,
            "description": "The ten warnings on the most hosts.",
            "items": {
              "$ref": "#/components/schemas/FindingCount"
            }
          },
          "topSuggestions": {
            "type": "array",
            "maxItems": 10,
            "items": {
              "$ref": "#/components/schemas/FindingCount"
            },
            "example": [
              {
                "kind": "suggestion",
                "testId": "DEB-0280",
                "text": "Install libpam-tmpdir to set $TMP and $TMPDIR for PAM sessions",
                "hosts": 410
              }
            ]
          },
          "operatingSystems": {
            "type": "array",
            "maxItems": 20,
            "description": "The twenty operating systems on the most hosts.",
            "items": {
              "$ref": "#/components/schemas/LabelCount"
            }
          },
          "lynisVersions": {
            "type": "array",
            "maxItems": 20,
            "items": {
              "$ref": "#/components/schemas/LabelCount"
            },
            "example": [
              {
                "name": "3.0.8",
                "hosts": 480
              },
              {
                "name": "3.1.1",
                "hosts": 32
              }
            ]
          },
          "uploadsPerDay": {
            "type": "array",
            "description": "Each of the last 30 days (UTC), oldest first, zeros included: reports received (of those still\nstored) and uploads refused.\n",
            "items": {
              "type": "object",
              "required": [
                "day",
                "accepted",
                "refused"
              ],
              "properties": {
                "day": {
                  "type": "string",
                  "format": "date",
                  "example": "2026-11-22"
                },
                "accepted": {
                  "type": "integer",
                  "example": 498
                },
                "refused": {
                  "type": "integer",
                  "example": 3
                }
              }
            }
          },
          "compliance": {
            "type": "object",
            "description": "The hosts' status over every enabled policy that applies to them (as `Host.compliance`).",
            "required": [
              "policies",
              "evaluatedHosts",
              "hosts",
              "rate",
              "trend"
            ],
            "properties": {
              "policies": {
                "type": "integer",
                "description": "Enabled policies.",
                "example": 2
              },
              "evaluatedHosts": {
                "type": "integer",
                "description": "Hosts at least one enabled policy applies to and has results for.",
                "example": 505
              },
              "hosts": {
                "$ref": "#/components/schemas/StatusCounts"
              },
              "rate": {
                "type": "number",
                "nullable": true,
                "description": "The share of evaluated hosts that pass, 0 to 1 (waived hosts do not pass); `null` when none is evaluated.",
                "example": 0.93
              },
              "trend": {
                "type": "array",
                "description": "For each of the last 90 days (UTC) on which it was measured, oldest first, the day's last measured rate.",
                "items": {
                  "type": "object",
                  "required": [
                    "day",
                    "rate",
                    "evaluatedHosts"
                  ],
                  "properties": {
                    "day": {
                      "type": "string",
                      "format": "date",
                      "example": "2026-11-22"
                    },
                    "rate": {
                      "type": "number",
                      "nullable": true,
                      "example": 0.92
                    },
                    "evaluatedHosts": {
                      "type": "integer",
                      "example": 498
                    }
                  }
                }
              }
            }
          },
          "staleHosts": {
            "type": "array",
            "maxItems": 10,
            "description": "The ten stale hosts seen longest ago (`GET /api/admin/hosts?state=stale` lists all).",
            "items": {
              "$ref": "#/components/schemas/Host"
            }
          }
        }
      },
      "RejectedOperation": {
        "type": "string",
        "enum": [
          "uploadReport",
          "checkLicense"
        ],
        "description": "`uploadReport`: an upload; `checkLicense`: a license check.",
        "example": "uploadReport"
      },
      "RejectionReason": {
        "type": "string",
        "minLength": 1,
        "maxLength": 32,
        "pattern": "^[a-z-]+$",
        "description": "Why the request was refused: `invalid-key`, `invalid-data`, `not-a-report` (no finished Lynis report,\n400), `host-identity-changed` (strict identity mode, 409), `host-quota-exceeded` (the key's quota of new\nhosts, 429), `invalid-request`, `malformed`, `unsupported-type`, `too-large`, `method-not-allowed`,\n`rate-limited`, `busy`, `too-slow`, `unavailable` (the reasons of the `audit_requests_rejected_total`\nmetric).\n",
        "example": "invalid-key"
      },
      "RejectionGroup": {
        "type": "object",
        "description": "Refused requests of one day, operation, reason, license key and `hostid`. Never carries a license key.\n",
        "required": [
          "day",
          "operation",
          "reason",
          "keyId",
          "hostId",
          "folded",
          "remoteAddresses",
          "addressCount",
          "count",
          "firstAt",
          "lastAt"
        ],
        "properties": {
          "day": {
            "type": "string",
            "format": "date",
            "description": "The day (UTC) of the refusals.",
            "example": "2026-11-22"
          },
          "operation": {
            "$ref": "#/components/schemas/RejectedOperation"
          },
          "reason": {
            "$ref": "#/components/schemas/RejectionReason"
          },
          "keyId": {
            "type": "string",
            "format": "uuid",
            "nullable": true,
            "description": "The license key the request named; `null` when it named none the server knows.",
            "example": "0f8fad5b-d9cb-469f-a165-70867728950e"
          },
          "hostId": {
            "type": "string",
            "nullable": true,
            "description": "The `hostid` the request sent; `null` when it sent none, one the contract refuses, or the item is `folded`.",
            "example": "0123456789abcdef0123456789abcdef01234567"
          },
          "folded": {
            "type": "boolean",
            "description": "Counts refusals beyond the bound of distinct groups a server keeps per day, from many hosts and\naddresses together: their `hostid` and address are not kept.\n",
            "example": false
          },
          "remoteAddresses": {
            "type": "array",
            "maxItems": 20,
            "description": "Client addresses the refused requests came from, most refusals first (at most 20).",
            "items": {
              "type": "string",
              "example": "203.0.113.7"
            }
          },
          "addressCount": {
            "type": "integer",
            "minimum": 0,
            "description": "How many distinct client addresses there were.",
            "example": 1
          },
          "count": {
            "type": "integer",
            "minimum": 1,
            "description": "How many requests were refused.",
            "example": 3
          },
          "firstAt": {
            "type": "string",
            "format": "date-time",
            "example": "2026-11-22T02:10:03.000Z"
          },
          "lastAt": {
            "type": "string",
            "format": "date-time",
            "example": "2026-11-22T13:41:25.000Z"
          }
        }
      },
      "RejectionPage": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Page"
          },
          {
            "type": "object",
            "required": [
              "items"
            ],
            "properties": {
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/RejectionGroup"
                }
              }
            }
          }
        ]
      },
      "RuleId": {
        "type": "string",
        "pattern": "^[a-z0-9][a-z0-9-]{0,63}$",
        "description": "A rule's id within its policy; results and waivers name it.",
        "example": "hardening-index"
      },
      "RuleStatus": {
        "type": "string",
        "enum": [
          "pass",
          "fail",
          "error",
          "waived"
        ],
        "description": "`pass`: the expression is true; `fail`: false; `error`: it could not be evaluated on this host's report\n(say, a key the report lacks) or gave no boolean; `waived`: `fail` or `error` under a waiver that has not\nexpired.\n",
        "example": "fail"
      },
      "Rule": {
        "type": "object",
        "required": [
          "id",
          "expression"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/RuleId"
          },
          "description": {
            "type": "string",
            "maxLength": 500,
            "nullable": true,
            "example": "Hardening index of at least 60"
          },
          "controls": {
            "type": "array",
            "maxItems": 20,
            "description": "The framework controls this rule is evidence for (see `listControls`).",
            "items": {
              "$ref": "#/components/schemas/ControlRef"
            }
          },
          "expression": {
            "type": "string",
            "minLength": 1,
            "maxLength": 2000,
            "description": "A CEL expression, true when the host complies. It sees `summary` (the report's `ReportSummary`),\n`report` (every key of the report: `key[]` lines as a list under `key`, absent Lynis list keys as empty\nlists, `installed_packages_array` as a map of package to version), `host` (`hostname`, `hostId`,\n`keyId`, `groups`, `tags`, `lastSeen`) and `now`. At most 200 nodes, no comprehension (`all`,\n`exists`, `map`, `filter`) inside another, and no `matches` (JavaScript regular expressions can take\nexponential time). The shape does not bound the cost (building strings and lists multiplies), so each\nevaluation has a budget: 200 ms per rule and 1 s per host, strings built at most 100,000 characters and\nlists 100,000 elements (10,000,000 characters and 1,000,000 elements in all). A rule over budget is an\n`error` saying which budget; a rule over its time budget on a large synthetic report is refused when\nsaved; a policy whose rules overrun their time budget three times, or stop the evaluator, is\nquarantined.\n",
            "example": "summary.hardeningIndex >= 60"
          }
        }
      },
      "PolicyScope": {
        "type": "object",
        "description": "Which hosts the policy applies to; every condition given must hold, and none given means every host.",
        "properties": {
          "keyId": {
            "type": "string",
            "format": "uuid",
            "nullable": true,
            "description": "Hosts uploading with this license key."
          },
          "group": {
            "type": "string",
            "nullable": true,
            "minLength": 1,
            "maxLength": 255,
            "description": "Hosts whose latest report lists this group in `system-groups=`.",
            "example": "webservers"
          },
          "tag": {
            "type": "string",
            "nullable": true,
            "minLength": 1,
            "maxLength": 255,
            "description": "Hosts whose latest report lists this tag in `tags=`."
          },
          "hostname": {
            "type": "string",
            "nullable": true,
            "minLength": 1,
            "maxLength": 255,
            "description": "Hosts whose host name matches this pattern, where `*` stands for any characters (case-insensitive).",
            "example": "web-*"
          }
        }
      },
      "PolicyInput": {
        "type": "object",
        "required": [
          "name",
          "rules"
        ],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100,
            "pattern": "^[^\\u0000-\\u001F\\u007F]+$",
            "example": "Baseline"
          },
          "description": {
            "type": "string",
            "nullable": true,
            "maxLength": 2000
          },
          "enabled": {
            "type": "boolean",
            "default": true,
            "description": "A disabled policy keeps its rules but is not evaluated and counts for no host."
          },
          "scope": {
            "$ref": "#/components/schemas/PolicyScope"
          },
          "rules": {
            "type": "array",
            "minItems": 1,
            "maxItems": 50,
            "items": {
              "$ref": "#/components/schemas/Rule"
            }
          }
        }
      },
      "StatusCounts": {
        "type": "object",
        "description": "Hosts with each status.",
        "required": [
          "pass",
          "fail",
          "error",
          "waived"
        ],
        "properties": {
          "pass": {
            "type": "integer",
            "example": 480
          },
          "fail": {
            "type": "integer",
            "example": 20
          },
          "error": {
            "type": "integer",
            "example": 0
          },
          "waived": {
            "type": "integer",
            "example": 3
          }
        }
      },
      "PolicyQuarantine": {
        "type": "object",
        "description": "Why the evaluator disabled the policy: its rules overran their time budget three times, or one stopped the\nevaluator (its memory, or a server that did not survive its evaluation). Enabling the policy again (or\nsaving it) clears it.\n",
        "required": [
          "at",
          "reason"
        ],
        "properties": {
          "at": {
            "type": "string",
            "format": "date-time"
          },
          "reason": {
            "type": "string",
            "example": "rule slow: the rule exceeded its time budget of 200 ms (3 times)"
          }
        }
      },
      "Policy": {
        "type": "object",
        "required": [
          "id",
          "name",
          "description",
          "enabled",
          "scope",
          "rules",
          "createdAt",
          "updatedAt",
          "hosts",
          "quarantine"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "name": {
            "type": "string",
            "example": "Baseline"
          },
          "description": {
            "type": "string",
            "nullable": true
          },
          "enabled": {
            "type": "boolean"
          },
          "scope": {
            "$ref": "#/components/schemas/PolicyScope"
          },
          "rules": {
            "type": "array",
            "items": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/Rule"
                },
                {
                  "type": "object",
                  "required": [
                    "results"
                  ],
                  "properties": {
                    "results": {
                      "$ref": "#/components/schemas/StatusCounts"
                    }
                  }
                }
              ]
            }
          },
          "revision": {
            "type": "integer",
            "description": "The policy's version, raised by every change; each result keeps the version it was evaluated under.",
            "example": 3
          },
          "createdAt": {
            "type": "string",
            "format": "date-time"
          },
          "updatedAt": {
            "type": "string",
            "format": "date-time"
          },
          "hosts": {
            "description": "Hosts evaluated under the policy: `pass` when every rule passes, `fail` when one fails (not waived),\n`error` when none fails but one errs, else `waived`.\n",
            "allOf": [
              {
                "$ref": "#/components/schemas/StatusCounts"
              }
            ]
          },
          "quarantine": {
            "type": "object",
            "description": "Set when the evaluator disabled the policy (`enabled` is then false); null otherwise.",
            "nullable": true,
            "allOf": [
              {
                "$ref": "#/components/schemas/PolicyQuarantine"
              }
            ]
          }
        }
      },
      "PolicyPreview": {
        "type": "object",
        "required": [
          "hostsWithReports",
          "hostsInScope",
          "evaluatedHosts",
          "failingHosts",
          "rules"
        ],
        "properties": {
          "hostsWithReports": {
            "type": "integer",
            "description": "Hosts that have a report."
          },
          "hostsInScope": {
            "type": "integer",
            "description": "Of them, the hosts the policy's scope covers."
          },
          "evaluatedHosts": {
            "type": "integer",
            "description": "The most recently seen hosts in scope whose latest report was evaluated (at most 2,000)."
          },
          "failingHosts": {
            "type": "integer",
            "description": "Of the evaluated hosts, those that fail or err on at least one rule (before waivers)."
          },
          "rules": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/RulePreview"
            }
          }
        }
      },
      "RulePreview": {
        "type": "object",
        "required": [
          "ruleId",
          "description",
          "evaluated",
          "passing",
          "failing",
          "errors"
        ],
        "properties": {
          "ruleId": {
            "$ref": "#/components/schemas/RuleId"
          },
          "description": {
            "type": "string",
            "nullable": true
          },
          "evaluated": {
            "type": "integer"
          },
          "passing": {
            "type": "integer"
          },
          "failing": {
            "type": "integer"
          },
          "errors": {
            "type": "integer"
          }
        }
      },
      "PolicyList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Policy"
            }
          }
        }
      },
      "RuleError": {
        "type": "object",
        "required": [
          "ruleId",
          "position",
          "message"
        ],
        "properties": {
          "ruleId": {
            "type": "string",
            "example": "hardening-index"
          },
          "position": {
            "type": "integer",
            "nullable": true,
            "description": "Where in the expression the error is (0 is its first character), when known.",
            "example": 26
          },
          "message": {
            "type": "string",
            "example": "Unexpected token: EOF"
          }
        }
      },
      "PolicyResult": {
        "type": "object",
        "required": [
          "policyId",
          "ruleId",
          "hostRecordId",
          "hostname",
          "hostId",
          "status",
          "value",
          "message",
          "reportId",
          "evaluatedAt",
          "since",
          "waiverId"
        ],
        "properties": {
          "policyId": {
            "$ref": "#/components/schemas/Id"
          },
          "ruleId": {
            "$ref": "#/components/schemas/RuleId"
          },
          "hostRecordId": {
            "$ref": "#/components/schemas/Id"
          },
          "hostname": {
            "type": "string",
            "nullable": true,
            "example": "web-01"
          },
          "hostId": {
            "$ref": "#/components/schemas/HostId"
          },
          "status": {
            "$ref": "#/components/schemas/RuleStatus"
          },
          "value": {
            "type": "string",
            "nullable": true,
            "description": "The value the rule looked at, when its expression is a comparison: the left side's value in CEL\nnotation (for `summary.hardeningIndex >= 60`, the host's index), at most 200 characters.\n",
            "example": "56"
          },
          "message": {
            "type": "string",
            "nullable": true,
            "description": "Why the result is `error`.",
            "example": null
          },
          "reportId": {
            "$ref": "#/components/schemas/Id"
          },
          "evaluatedAt": {
            "type": "string",
            "format": "date-time"
          },
          "since": {
            "type": "string",
            "format": "date-time",
            "description": "When the rule last changed status on this host."
          },
          "policyRevision": {
            "type": "integer",
            "description": "The policy version (`Policy.revision`) the result was evaluated under.",
            "example": 3
          },
          "waiverId": {
            "type": "string",
            "format": "uuid",
            "nullable": true,
            "description": "The waiver that makes this result `waived`."
          }
        }
      },
      "PolicyResultPage": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Page"
          },
          {
            "type": "object",
            "required": [
              "items"
            ],
            "properties": {
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/PolicyResult"
                }
              }
            }
          }
        ]
      },
      "PolicyResultChange": {
        "type": "object",
        "required": [
          "policyId",
          "ruleId",
          "status",
          "value",
          "reportId",
          "at"
        ],
        "properties": {
          "policyId": {
            "$ref": "#/components/schemas/Id"
          },
          "ruleId": {
            "$ref": "#/components/schemas/RuleId"
          },
          "status": {
            "type": "string",
            "enum": [
              "pass",
              "fail",
              "error"
            ]
          },
          "value": {
            "type": "string",
            "nullable": true
          },
          "reportId": {
            "$ref": "#/components/schemas/Id"
          },
          "at": {
            "type": "string",
            "format": "date-time"
          }
        }
      },
      "HostCompliance": {
        "type": "object",
        "required": [
          "hostRecordId",
          "status",
          "results",
          "history"
        ],
        "properties": {
          "hostRecordId": {
            "$ref": "#/components/schemas/Id"
          },
          "status": {
            "type": "string",
            "nullable": true,
            "enum": [
              "pass",
              "fail",
              "error",
              "waived",
              null
            ],
            "description": "Over every enabled policy that applies, as `Policy.hosts` counts; `null` when none applies or none was evaluated yet."
          },
          "results": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PolicyResult"
            }
          },
          "history": {
            "type": "array",
            "maxItems": 100,
            "description": "The latest changes of status (pass, fail, error, before waivers), newest first.",
            "items": {
              "$ref": "#/components/schemas/PolicyResultChange"
            }
          }
        }
      },
      "WaiverInput": {
        "type": "object",
        "required": [
          "policyId",
          "reason",
          "expiresAt"
        ],
        "description": "At most one of `hostRecordId` and `group`: the waiver covers that host, or the hosts whose latest report\nnames that group (compared case-insensitively); with neither, every host the policy covers (the fleet).\n",
        "properties": {
          "policyId": {
            "$ref": "#/components/schemas/Id"
          },
          "ruleId": {
            "type": "string",
            "nullable": true,
            "pattern": "^[a-z0-9][a-z0-9-]{0,63}$",
            "description": "The rule waived; `null` or absent waives every rule of the policy."
          },
          "hostRecordId": {
            "type": "string",
            "format": "uuid",
            "nullable": true
          },
          "group": {
            "type": "string",
            "nullable": true,
            "minLength": 1,
            "maxLength": 255
          },
          "reason": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1000,
            "example": "Legacy kernel until the hardware is replaced (ticket OPS-123)"
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time",
            "example": "2027-03-31T00:00:00.000Z"
          }
        }
      },
      "Waiver": {
        "allOf": [
          {
            "$ref": "#/components/schemas/WaiverInput"
          },
          {
            "type": "object",
            "required": [
              "id",
              "ruleId",
              "hostRecordId",
              "group",
              "createdAt",
              "createdBy"
            ],
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "createdAt": {
                "type": "string",
                "format": "date-time"
              },
              "createdBy": {
                "type": "string",
                "nullable": true,
                "description": "The label of the admin token that created it."
              },
              "policyName": {
                "type": "string",
                "description": "The waived policy's name.",
                "example": "Baseline"
              },
              "hostname": {
                "type": "string",
                "nullable": true,
                "description": "For a host's waiver, the host's name as its latest report gives it.",
                "example": "web-01"
              }
            }
          }
        ]
      },
      "WaiverBulkInput": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "policyId",
          "reason",
          "expiresAt",
          "hosts"
        ],
        "description": "One waiver per host selected, each as `createWaiver` would make it for `hostRecordId`.",
        "properties": {
          "policyId": {
            "$ref": "#/components/schemas/Id"
          },
          "ruleId": {
            "type": "string",
            "nullable": true,
            "pattern": "^[a-z0-9][a-z0-9-]{0,63}$",
            "description": "The rule waived; `null` or absent waives every rule of the policy."
          },
          "reason": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1000
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time"
          },
          "hosts": {
            "$ref": "#/components/schemas/HostSelection"
          }
        }
      },
      "HostSelection": {
        "type": "object",
        "additionalProperties": false,
        "description": "Which hosts: `ids` (the hosts an operator ticked), or `filters`, the host list's filters (all hosts matching\nthem, as `listHosts` would list them; `{}` is every host). Exactly one of the two.\n",
        "properties": {
          "ids": {
            "type": "array",
            "minItems": 1,
            "maxItems": 500,
            "items": {
              "$ref": "#/components/schemas/Id"
            }
          },
          "filters": {
            "$ref": "#/components/schemas/HostFilterValues"
          }
        }
      },
      "HostFilterValues": {
        "type": "object",
        "additionalProperties": false,
        "description": "The filters of `listHosts`, as an object, each as the query parameter of the same name takes it.",
        "properties": {
          "hostname": {
            "$ref": "#/components/schemas/LabelFilter"
          },
          "keyId": {
            "$ref": "#/components/schemas/Id"
          },
          "hostId": {
            "$ref": "#/components/schemas/HostId"
          },
          "group": {
            "$ref": "#/components/schemas/LabelFilter"
          },
          "tag": {
            "$ref": "#/components/schemas/LabelFilter"
          },
          "os": {
            "$ref": "#/components/schemas/LabelFilter"
          },
          "finding": {
            "$ref": "#/components/schemas/TestId"
          },
          "findingKind": {
            "$ref": "#/components/schemas/FindingKind"
          },
          "seenBefore": {
            "type": "string",
            "format": "date-time"
          },
          "compliance": {
            "$ref": "#/components/schemas/HostComplianceState"
          },
          "failingPolicy": {
            "$ref": "#/components/schemas/Id"
          },
          "failingRule": {
            "$ref": "#/components/schemas/RuleId"
          },
          "state": {
            "type": "string",
            "enum": [
              "current",
              "active",
              "stale",
              "decommissioned",
              "all"
            ]
          }
        }
      },
      "WaiverBulkResult": {
        "type": "object",
        "required": [
          "created",
          "hosts"
        ],
        "properties": {
          "created": {
            "type": "integer",
            "description": "Waivers created (one per host selected).",
            "example": 421
          },
          "hosts": {
            "type": "integer",
            "description": "Hosts selected.",
            "example": 421
          }
        }
      },
      "WaiverList": {
        "type": "object",
        "required": [
          "items",
          "maxDays"
        ],
        "properties": {
          "maxDays": {
            "type": "integer",
            "description": "The longest a waiver may run, in days from its creation (the server's `waiverMaxDays`).",
            "example": 365
          },
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Waiver"
            }
          }
        }
      },
      "WebhookEventType": {
        "type": "string",
        "enum": [
          "report.stored",
          "host.regressed",
          "host.noncompliant",
          "host.compliant",
          "host.stale",
          "uploads.refused",
          "key.expiring",
          "host.identity_changed",
          "key.quota_reached",
          "policy.quarantined",
          "audit.event",
          "host.enrolled",
          "host.decommissioned",
          "host.reactivated",
          "host.merged",
          "host.deleted",
          "finding.opened",
          "finding.resolved",
          "finding.regressed",
          "finding.accepted",
          "finding.acceptance_expired",
          "digest.ready"
        ],
        "description": "`report.stored`: a report was stored. `host.regressed`: a host's new report has a hardening index lower by at\nleast `regressionThreshold` than its previous one, or a warning the previous one did not have.\n`host.noncompliant` / `host.compliant`: a host's status on a policy became `fail` / `pass`. `host.stale`: a\nhost became `stale` (no report for its stale threshold; once, until it reports again). `uploads.refused`: uploads under a\nlicense key are being refused (at most one event per key and reason per hour, however many `hostid`s the\nrefused uploads name; `data` is an `UploadsRefusedEventData`). `key.expiring`: a license key expires\nwithin 7 days (once per key). `host.identity_changed`: a report for a known host carried another `hostid2`\nthan its last one (stored, or refused in strict identity mode; once per change, see `Host.identityChange`).\n`key.quota_reached`: an upload from a host new to a key was refused by the key's quota of hosts (once per\nkey and UTC day). `policy.quarantined`: the evaluator disabled a policy whose rules overran their budget\n(`data`: `policyId`, `policyName`, `ruleId`, `reason`; see `Policy.quarantine`). `audit.event`: an entry\nwas added to the audit trail (`data`: the `AuditEvent`), so that a SIEM can take the trail as it grows.\nHost lifecycle, each once per transition (`data`: `hostRecordId`, `keyId`, `hostId`, `hostname`, and\n`reason` or `previousState` where they apply): `host.enrolled` (a host's first report), `host.stale`\n(see above), `host.decommissioned`, `host.reactivated` (by an operator, or by a report after\ndecommission), `host.merged` (`data` also `mergedHostRecordId`, `mergedHostId` and `automatic`),\n`host.deleted`. Findings (`data`: the `TrackedFinding`): `finding.opened` (first seen on a host),\n`finding.resolved` (a later report no longer has it), `finding.regressed` (seen again after being\nresolved), `finding.accepted` (its risk accepted), `finding.acceptance_expired` (the acceptance ran out; it\nis open again). `digest.ready`: a scheduled digest was issued (`data`: `digestId`, `scheduleId`, `scope`,\n`cadence`, `periodStart`, `periodEnd`, `link` to its printable page).\n",
        "example": "host.regressed"
      },
      "WebhookInput": {
        "type": "object",
        "required": [
          "url",
          "events"
        ],
        "properties": {
          "url": {
            "type": "string",
            "format": "uri",
            "maxLength": 2000,
            "pattern": "^https?://",
            "example": "https://hooks.example.org/audit"
          },
          "description": {
            "type": "string",
            "nullable": true,
            "maxLength": 500
          },
          "events": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": true,
            "items": {
              "$ref": "#/components/schemas/WebhookEventType"
            }
          },
          "format": {
            "type": "string",
            "enum": [
              "standard",
              "slack"
            ],
            "default": "standard",
            "description": "`standard`: the event as JSON; `slack`: a Slack-compatible `{\"text\": …}` message (still signed)."
          },
          "enabled": {
            "type": "boolean",
            "default": true
          },
          "staleDays": {
            "type": "integer",
            "minimum": 1,
            "maximum": 365,
            "default": 7,
            "deprecated": true,
            "description": "Ignored: `host.stale` follows the host's lifecycle state (the server's stale threshold and its groups'\nown). Kept so that older clients' subscriptions are still accepted.\n"
          },
          "regressionThreshold": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 5
          },
          "maxDeliveriesPerMinute": {
            "type": "integer",
            "minimum": 1,
            "maximum": 10000,
            "default": 60,
            "description": "Most new deliveries made for this subscription in any 60 seconds (retries of a delivery are not counted).\nEvents beyond it are folded: counted, then told in one `events.folded` delivery as soon as the minute\nhas room (it counts as one of the minute's deliveries). Nothing is dropped.\n"
          }
        }
      },
      "Webhook": {
        "allOf": [
          {
            "$ref": "#/components/schemas/WebhookInput"
          },
          {
            "type": "object",
            "required": [
              "id",
              "description",
              "format",
              "enabled",
              "staleDays",
              "regressionThreshold",
              "maxDeliveriesPerMinute",
              "createdAt",
              "secretPrefix",
              "pending",
              "failed"
            ],
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "createdAt": {
                "type": "string",
                "format": "date-time"
              },
              "secretPrefix": {
                "type": "string",
                "description": "The secret's first characters, `whsec_` included.",
                "example": "whsec_3f9a"
              },
              "pending": {
                "type": "integer",
                "description": "Deliveries waiting to be sent or retried.",
                "example": 0
              },
              "failed": {
                "type": "integer",
                "description": "Deliveries that gave up after every attempt.",
                "example": 0
              }
            }
          }
        ]
      },
      "NewWebhook": {
        "type": "object",
        "required": [
          "webhook",
          "secret"
        ],
        "properties": {
          "webhook": {
            "$ref": "#/components/schemas/Webhook"
          },
          "secret": {
            "type": "string",
            "description": "The signing secret (`whsec_` and base64), shown this once.",
            "example": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
          }
        }
      },
      "WebhookList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Webhook"
            }
          }
        }
      },
      "DeliveryEventType": {
        "description": "The type of a delivery's event: one a subscription chose (`WebhookEventType`), or `events.folded`, which no\nsubscription chooses: it is sent to any subscription whose `maxDeliveriesPerMinute` was passed, and its\n`data` is an `EventsFoldedEventData`; or `webhook.test`, sent by `sendTestWebhookEvent` only (its `data`\nnames the subscription and says it is a test).\n",
        "anyOf": [
          {
            "$ref": "#/components/schemas/WebhookEventType"
          },
          {
            "type": "string",
            "enum": [
              "events.folded",
              "webhook.test"
            ]
          }
        ],
        "example": "events.folded"
      },
      "UploadsRefusedEventData": {
        "type": "object",
        "description": "The `data` of an `uploads.refused` event: the uploads under one license key refused for one reason, as the\nserver counted them when it first wrote them in the hour (the rest of the hour's are in\n`GET /api/admin/rejections`). `hostid`s are chosen by the sender, so only a few are given, as examples.\n",
        "required": [
          "keyId",
          "reason",
          "count",
          "hostIdCount",
          "exampleHostIds",
          "firstAt",
          "lastAt"
        ],
        "properties": {
          "keyId": {
            "$ref": "#/components/schemas/Id"
          },
          "reason": {
            "$ref": "#/components/schemas/RejectionReason"
          },
          "count": {
            "type": "integer",
            "description": "Refused uploads told of.",
            "example": 200
          },
          "hostIdCount": {
            "type": "integer",
            "description": "Distinct `hostid`s among them (refusals counted without theirs, when the server held too many, add none).",
            "example": 200
          },
          "exampleHostIds": {
            "type": "array",
            "maxItems": 5,
            "items": {
              "type": "string"
            },
            "description": "Up to 5 of those `hostid`s, in sorted order.",
            "example": [
              "0c1f4e9ab4d0c5e3a1f27b8d9c6e5a4b3c2d1e0f"
            ]
          },
          "firstAt": {
            "type": "string",
            "format": "date-time"
          },
          "lastAt": {
            "type": "string",
            "format": "date-time"
          }
        }
      },
      "EventsFoldedEventData": {
        "type": "object",
        "description": "The `data` of an `events.folded` delivery: events not delivered one by one because the subscription's\n`maxDeliveriesPerMinute` was reached, counted per type. Each folded event counts in exactly one summary.\n",
        "required": [
          "count",
          "counts",
          "firstAt",
          "lastAt",
          "eventIds",
          "maxDeliveriesPerMinute"
        ],
        "properties": {
          "count": {
            "type": "integer",
            "description": "Events folded into this summary (the sum of `counts`).",
            "example": 140
          },
          "counts": {
            "type": "object",
            "description": "Events folded, per event type.",
            "additionalProperties": {
              "type": "integer"
            },
            "example": {
              "report.stored": 120,
              "host.regressed": 20
            }
          },
          "firstAt": {
            "type": "string",
            "format": "date-time",
            "description": "When the first of them happened."
          },
          "lastAt": {
            "type": "string",
            "format": "date-time",
            "description": "When the last of them happened."
          },
          "eventIds": {
            "type": "array",
            "maxItems": 10,
            "items": {
              "type": "string"
            },
            "description": "The ids (`webhook-id`) the first 10 of them would have been sent with.",
            "example": [
              "msg_2b1c7e0f6a5d4c3b9a8f7e6d5c4b3a29"
            ]
          },
          "maxDeliveriesPerMinute": {
            "type": "integer",
            "description": "The subscription's cap when they were folded.",
            "example": 60
          }
        }
      },
      "DeliveryStatus": {
        "type": "string",
        "enum": [
          "pending",
          "delivered",
          "failed"
        ],
        "description": "`pending`: to be sent or retried; `delivered`: answered 2xx; `failed`: gave up after the last attempt."
      },
      "WebhookDelivery": {
        "type": "object",
        "required": [
          "id",
          "webhookId",
          "eventId",
          "eventType",
          "hostRecordId",
          "hostname",
          "status",
          "attempts",
          "lastStatusCode",
          "lastError",
          "createdAt",
          "nextAttemptAt",
          "deliveredAt",
          "payload"
        ],
        "properties": {
          "hostRecordId": {
            "type": "string",
            "format": "uuid",
            "nullable": true,
            "description": "The host the event is about, when it is about one host."
          },
          "hostname": {
            "type": "string",
            "nullable": true,
            "description": "That host's name, as the event's data gives it.",
            "example": "web-01"
          },
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "webhookId": {
            "$ref": "#/components/schemas/Id"
          },
          "eventId": {
            "type": "string",
            "description": "The event's id, sent as `webhook-id` (the same on every attempt, so receivers can drop duplicates).",
            "example": "msg_2b1c7e0f6a5d4c3b9a8f7e6d5c4b3a29"
          },
          "eventType": {
            "$ref": "#/components/schemas/DeliveryEventType"
          },
          "status": {
            "$ref": "#/components/schemas/DeliveryStatus"
          },
          "attempts": {
            "type": "integer",
            "example": 1
          },
          "lastStatusCode": {
            "type": "integer",
            "nullable": true,
            "example": 200
          },
          "lastError": {
            "type": "string",
            "nullable": true,
            "example": null
          },
          "createdAt": {
            "type": "string",
            "format": "date-time"
          },
          "nextAttemptAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          },
          "deliveredAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          },
          "payload": {
            "type": "string",
            "description": "The body sent, as sent."
          }
        }
      },
      "WebhookDeliveryPage": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Page"
          },
          {
            "type": "object",
            "required": [
              "items"
            ],
            "properties": {
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/WebhookDelivery"
                }
              }
            }
          }
        ]
      },
      "HostExport": {
        "type": "object",
        "required": [
          "id",
          "hostname",
          "hostId",
          "keyId",
          "keyLabel",
          "os",
          "lynisVersion",
          "groups",
          "tags",
          "customerName",
          "firstSeen",
          "lastSeen",
          "reportCount",
          "hardeningIndex",
          "warnings",
          "suggestions",
          "compliance",
          "failingRules"
        ],
        "properties": {
          "id": {
            "type": "string",
            "format": "uuid"
          },
          "hostname": {
            "type": "string",
            "nullable": true
          },
          "hostId": {
            "type": "string"
          },
          "keyId": {
            "type": "string",
            "format": "uuid"
          },
          "keyLabel": {
            "type": "string",
            "nullable": true,
            "description": "The label of the host's license key; null when it has none."
          },
          "os": {
            "type": "string",
            "nullable": true
          },
          "lynisVersion": {
            "type": "string",
            "nullable": true
          },
          "groups": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "customerName": {
            "type": "string",
            "nullable": true
          },
          "firstSeen": {
            "type": "string",
            "format": "date-time"
          },
          "lastSeen": {
            "type": "string",
            "format": "date-time"
          },
          "reportCount": {
            "type": "integer"
          },
          "hardeningIndex": {
            "type": "integer",
            "nullable": true
          },
          "warnings": {
            "type": "integer",
            "nullable": true
          },
          "suggestions": {
            "type": "integer",
            "nullable": true
          },
          "compliance": {
            "$ref": "#/components/schemas/HostComplianceState"
          },
          "failingRules": {
            "type": "array",
            "description": "The rules the host fails (`fail` or `error`, not waived), as `policyName/ruleId`.",
            "items": {
              "type": "string"
            },
            "example": [
              "Baseline/firewall",
              "Baseline/no-vulnerable-packages"
            ]
          }
        }
      },
      "FindingExport": {
        "type": "object",
        "required": [
          "kind",
          "testId",
          "text",
          "hostRecordId",
          "hostname",
          "hostId"
        ],
        "properties": {
          "kind": {
            "$ref": "#/components/schemas/FindingKind"
          },
          "testId": {
            "type": "string"
          },
          "text": {
            "type": "string"
          },
          "hostRecordId": {
            "type": "string",
            "format": "uuid"
          },
          "hostname": {
            "type": "string",
            "nullable": true
          },
          "hostId": {
            "type": "string"
          }
        }
      },
      "HistoryExport": {
        "type": "object",
        "required": [
          "reportId",
          "receivedAt",
          "lynisVersion",
          "hardeningIndex",
          "warnings",
          "suggestions"
        ],
        "properties": {
          "reportId": {
            "type": "string",
            "format": "uuid"
          },
          "receivedAt": {
            "type": "string",
            "format": "date-time"
          },
          "lynisVersion": {
            "type": "string",
            "nullable": true
          },
          "hardeningIndex": {
            "type": "integer",
            "nullable": true
          },
          "warnings": {
            "type": "integer",
            "nullable": true
          },
          "suggestions": {
            "type": "integer",
            "nullable": true
          }
        }
      },
      "AdminRole": {
        "type": "string",
        "description": "What an admin token may do, each role including the ones before it: `viewer` reads everything and runs\nexports; `operator` also takes day-to-day actions (waivers, accepting a host's identity change, webhook\ntests and redeliveries, policy previews); `admin` may do everything (license keys, policies, webhooks).\n",
        "enum": [
          "viewer",
          "operator",
          "admin"
        ],
        "example": "operator"
      },
      "AccessScope": {
        "type": "object",
        "description": "Which hosts a person or token may see: those whose newest report names one of `customers`\n(`system-customer-name=`) or belongs to one of `groups` (system groups). Both empty: every host. A scoped\nactor's lists, counts, charts, compliance figures and exports cover its hosts only, and a host outside\nthem answers 404 as if it did not exist.\n",
        "required": [
          "customers",
          "groups"
        ],
        "additionalProperties": false,
        "properties": {
          "customers": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "type": "string",
              "minLength": 1,
              "maxLength": 255
            },
            "example": [
              "acme"
            ]
          },
          "groups": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "type": "string",
              "minLength": 1,
              "maxLength": 255
            },
            "example": []
          }
        }
      },
      "SignInOptions": {
        "type": "object",
        "required": [
          "sso"
        ],
        "properties": {
          "sso": {
            "type": "object",
            "required": [
              "enabled",
              "label"
            ],
            "properties": {
              "enabled": {
                "type": "boolean",
                "description": "Whether \"Sign in with SSO\" works here (OpenID Connect is configured)."
              },
              "label": {
                "type": "string",
                "nullable": true,
                "description": "The identity provider's name for the button (`--oidc-label`), or null.",
                "example": "Keycloak"
              }
            }
          }
        }
      },
      "User": {
        "type": "object",
        "description": "A person's account; never its password or its hash.",
        "required": [
          "id",
          "email",
          "displayName",
          "role",
          "scope",
          "disabled",
          "signIn",
          "createdAt",
          "lastSignInAt"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "email": {
            "type": "string",
            "example": "grace@example.org"
          },
          "displayName": {
            "type": "string",
            "nullable": true,
            "example": "Grace Hopper"
          },
          "role": {
            "$ref": "#/components/schemas/AdminRole"
          },
          "scope": {
            "$ref": "#/components/schemas/AccessScope"
          },
          "disabled": {
            "type": "boolean"
          },
          "signIn": {
            "type": "array",
            "description": "How the person can sign in (`password`, `sso`).",
            "items": {
              "type": "string",
              "enum": [
                "password",
                "sso"
              ]
            },
            "example": [
              "password"
            ]
          },
          "createdAt": {
            "type": "string",
            "format": "date-time"
          },
          "lastSignInAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          }
        }
      },
      "UserList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/User"
            }
          }
        }
      },
      "NewUserRequest": {
        "type": "object",
        "required": [
          "email",
          "role"
        ],
        "additionalProperties": false,
        "properties": {
          "email": {
            "type": "string",
            "minLength": 3,
            "maxLength": 254
          },
          "displayName": {
            "type": "string",
            "maxLength": 255
          },
          "role": {
            "$ref": "#/components/schemas/AdminRole"
          },
          "password": {
            "type": "string",
            "format": "password",
            "minLength": 12,
            "maxLength": 1024,
            "description": "At least 12 characters; never logged nor stored (argon2id hash only). Omit for single sign-on only."
          },
          "scope": {
            "$ref": "#/components/schemas/AccessScope"
          }
        }
      },
      "UserChange": {
        "type": "object",
        "minProperties": 1,
        "additionalProperties": false,
        "properties": {
          "displayName": {
            "type": "string",
            "nullable": true,
            "maxLength": 255
          },
          "role": {
            "$ref": "#/components/schemas/AdminRole"
          },
          "scope": {
            "$ref": "#/components/schemas/AccessScope"
          },
          "disabled": {
            "type": "boolean"
          }
        }
      },
      "AdminTokenInfo": {
        "type": "object",
        "description": "An admin API token; never the token itself.",
        "required": [
          "id",
          "label",
          "prefix",
          "kind",
          "owner",
          "serviceAccount",
          "role",
          "scope",
          "createdAt",
          "lastUsedAt",
          "expiresAt",
          "revokedAt"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "label": {
            "type": "string",
            "nullable": true,
            "example": "nightly export"
          },
          "prefix": {
            "type": "string",
            "description": "The token's first characters, `adm_` included.",
            "example": "adm_3f9a2c1e"
          },
          "kind": {
            "type": "string",
            "enum": [
              "personal",
              "service"
            ],
            "description": "`personal`: a person's (at most its role, within its scope); `service`: a named service account's."
          },
          "owner": {
            "type": "object",
            "nullable": true,
            "description": "The person a personal token belongs to (`kind: personal`).",
            "required": [
              "id",
              "email"
            ],
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "email": {
                "type": "string"
              }
            }
          },
          "serviceAccount": {
            "type": "string",
            "nullable": true,
            "description": "The service account's name (`kind: service`).",
            "example": "siem"
          },
          "role": {
            "$ref": "#/components/schemas/AdminRole"
          },
          "scope": {
            "$ref": "#/components/schemas/AccessScope"
          },
          "createdAt": {
            "type": "string",
            "format": "date-time"
          },
          "lastUsedAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          },
          "revokedAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          }
        }
      },
      "AdminTokenList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/AdminTokenInfo"
            }
          }
        }
      },
      "NewPersonalTokenRequest": {
        "type": "object",
        "required": [
          "label"
        ],
        "additionalProperties": false,
        "properties": {
          "label": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255
          },
          "role": {
            "$ref": "#/components/schemas/AdminRole"
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true,
            "description": "When the token stops working; null or absent for never."
          }
        }
      },
      "NewServiceTokenRequest": {
        "type": "object",
        "required": [
          "serviceAccount",
          "role"
        ],
        "additionalProperties": false,
        "properties": {
          "serviceAccount": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
            "description": "The service account's name."
          },
          "label": {
            "type": "string",
            "maxLength": 255
          },
          "role": {
            "$ref": "#/components/schemas/AdminRole"
          },
          "scope": {
            "$ref": "#/components/schemas/AccessScope"
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          }
        }
      },
      "NewAdminToken": {
        "type": "object",
        "required": [
          "token",
          "adminToken"
        ],
        "properties": {
          "token": {
            "$ref": "#/components/schemas/AdminTokenInfo"
          },
          "adminToken": {
            "type": "string",
            "format": "password",
            "description": "The token itself, shown this once.",
            "example": "adm_3f9a2c1e5b7d4e8f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4"
          }
        }
      },
      "AuditOutcome": {
        "type": "string",
        "enum": [
          "success",
          "failure",
          "denied"
        ],
        "description": "`success`: done; `failure`: refused for its input or the state (4xx other than 401/403, or 5xx); `denied`: refused for who asked (401, 403, a lockout)."
      },
      "AuditEvent": {
        "type": "object",
        "description": "One entry of the audit trail. Never holds a secret, key, token or password.",
        "required": [
          "sequence",
          "id",
          "at",
          "actor",
          "operation",
          "target",
          "changes",
          "outcome",
          "status",
          "sourceAddress",
          "userAgent",
          "requestId",
          "previousHash",
          "hash"
        ],
        "properties": {
          "sequence": {
            "type": "integer",
            "description": "The entry's place in the chain, from 1.",
            "example": 1042
          },
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "at": {
            "type": "string",
            "format": "date-time"
          },
          "actor": {
            "type": "object",
            "required": [
              "kind",
              "id",
              "name",
              "role"
            ],
            "properties": {
              "kind": {
                "type": "string",
                "enum": [
                  "user",
                  "token",
                  "anonymous",
                  "system"
                ],
                "description": "`system`: the server itself, for what it does on its own (a host decommissioned by its group's\nexpiry or by auto-purge, two host records merged by identity merge); `name` says which rule.\n"
              },
              "id": {
                "type": "string",
                "nullable": true,
                "description": "The person's or token's id."
              },
              "name": {
                "type": "string",
                "nullable": true,
                "description": "The person's email, or the token's service account or label; for a failed sign-in, the email tried.",
                "example": "grace@example.org"
              },
              "role": {
                "type": "string",
                "enum": [
                  "viewer",
                  "operator",
                  "admin"
                ],
                "nullable": true,
                "description": "The role it acted with; null for an anonymous request."
              }
            }
          },
          "operation": {
            "type": "string",
            "description": "The operationId, such as `createWaiver` or `signIn`.",
            "example": "createWaiver"
          },
          "target": {
            "type": "object",
            "nullable": true,
            "required": [
              "type",
              "id"
            ],
            "properties": {
              "type": {
                "type": "string",
                "example": "waiver"
              },
              "id": {
                "type": "string",
                "nullable": true
              }
            }
          },
          "changes": {
            "type": "object",
            "nullable": true,
            "description": "What changed, field by field: `{ \"role\": { \"before\": \"viewer\", \"after\": \"operator\" } }`; an export's filters.",
            "additionalProperties": true
          },
          "outcome": {
            "$ref": "#/components/schemas/AuditOutcome"
          },
          "status": {
            "type": "integer",
            "description": "The HTTP status answered.",
            "example": 201
          },
          "sourceAddress": {
            "type": "string",
            "nullable": true,
            "example": "203.0.113.7"
          },
          "userAgent": {
            "type": "string",
            "nullable": true
          },
          "requestId": {
            "type": "string",
            "nullable": true
          },
          "previousHash": {
            "type": "string",
            "description": "The `hash` of the entry before (64 zeros for the first)."
          },
          "hash": {
            "type": "string",
            "description": "SHA-256 (hex) over `previousHash` and this entry's fields."
          }
        }
      },
      "AuditEventPage": {
        "type": "object",
        "required": [
          "items",
          "nextBefore"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/AuditEvent"
            }
          },
          "nextBefore": {
            "type": "integer",
            "nullable": true,
            "description": "`before` for the next page; null on the last one."
          }
        }
      },
      "Enrollment": {
        "type": "object",
        "description": "A way for hosts to join with one command; never its secret.",
        "required": [
          "id",
          "licenseKeyId",
          "keyLabel",
          "systemGroups",
          "tags",
          "customer",
          "expiresAt",
          "maxHosts",
          "hostCount",
          "state",
          "createdAt",
          "createdBy",
          "revokedAt",
          "lastUsedAt"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "licenseKeyId": {
            "$ref": "#/components/schemas/Id"
          },
          "keyLabel": {
            "type": "string",
            "nullable": true
          },
          "systemGroups": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "customer": {
            "type": "string",
            "nullable": true
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time"
          },
          "maxHosts": {
            "type": "integer",
            "nullable": true
          },
          "hostCount": {
            "type": "integer",
            "description": "Hosts that have enrolled with it (their first report arrived)."
          },
          "state": {
            "type": "string",
            "enum": [
              "active",
              "expired",
              "revoked",
              "full"
            ]
          },
          "createdAt": {
            "type": "string",
            "format": "date-time"
          },
          "createdBy": {
            "type": "string",
            "nullable": true,
            "description": "Who created it (an email, or a token's service account or label)."
          },
          "revokedAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          },
          "lastUsedAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true,
            "description": "When its script was last fetched."
          }
        }
      },
      "EnrollmentList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Enrollment"
            }
          }
        }
      },
      "NewEnrollmentRequest": {
        "type": "object",
        "required": [
          "licenseKeyId",
          "expiresAt"
        ],
        "additionalProperties": false,
        "properties": {
          "licenseKeyId": {
            "$ref": "#/components/schemas/Id"
          },
          "systemGroups": {
            "type": "array",
            "maxItems": 50,
            "items": {
              "type": "string",
              "pattern": "^[A-Za-z0-9._-]{1,64}$"
            },
            "default": []
          },
          "tags": {
            "type": "array",
            "maxItems": 50,
            "items": {
              "type": "string",
              "pattern": "^[A-Za-z0-9._-]{1,64}$"
            },
            "default": []
          },
          "customer": {
            "type": "string",
            "nullable": true,
            "pattern": "^[A-Za-z0-9._ -]{1,128}$"
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time",
            "description": "When the command stops working; at most 90 days ahead."
          },
          "maxHosts": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100000,
            "nullable": true
          }
        }
      },
      "NewEnrollment": {
        "type": "object",
        "required": [
          "enrollment",
          "secret",
          "command"
        ],
        "properties": {
          "enrollment": {
            "$ref": "#/components/schemas/Enrollment"
          },
          "secret": {
            "type": "string",
            "format": "password",
            "description": "The enrollment secret, shown this once."
          },
          "command": {
            "type": "string",
            "description": "The one-line command to run on each host (it carries the secret), shown this once.",
            "example": "curl -fsS -k --pinnedpubkey 'sha256//Qm9…=' -H 'Authorization: Bearer enr_…' https://collector.example.org:8443/enroll.sh | sudo sh"
          }
        }
      },
      "Moment": {
        "type": "string",
        "pattern": "^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2}))?$",
        "description": "A date (`YYYY-MM-DD`, the end of that UTC day) or a date-time with its offset.",
        "example": "2026-10-01"
      },
      "HostsByCompliance": {
        "type": "object",
        "required": [
          "compliant",
          "noncompliant",
          "accepted",
          "unknown"
        ],
        "properties": {
          "compliant": {
            "type": "integer",
            "example": 410
          },
          "noncompliant": {
            "type": "integer",
            "example": 72
          },
          "accepted": {
            "type": "integer",
            "description": "Failing only on rules a waiver in force covered.",
            "example": 12
          },
          "unknown": {
            "type": "integer",
            "description": "In scope but without a result, or with a rule in error.",
            "example": 6
          }
        }
      },
      "OpenFindingsByKind": {
        "type": "object",
        "required": [
          "warning",
          "suggestion",
          "accepted"
        ],
        "properties": {
          "warning": {
            "type": "integer",
            "description": "Warnings open, acknowledged or regressed.",
            "example": 93
          },
          "suggestion": {
            "type": "integer",
            "example": 1204
          },
          "accepted": {
            "type": "integer",
            "description": "Findings of either kind whose risk was accepted.",
            "example": 8
          }
        }
      },
      "CompliancePoint": {
        "type": "object",
        "required": [
          "date",
          "hosts",
          "compliancePercent",
          "openFindings",
          "final"
        ],
        "properties": {
          "date": {
            "type": "string",
            "format": "date",
            "description": "The interval's last day; the figures are as of its end (UTC).",
            "example": "2026-10-01"
          },
          "hosts": {
            "$ref": "#/components/schemas/HostsByCompliance"
          },
          "compliancePercent": {
            "type": "number",
            "nullable": true,
            "description": "Compliant and accepted hosts out of those with a known status, in percent; null when none is known.",
            "example": 95.8
          },
          "openFindings": {
            "$ref": "#/components/schemas/OpenFindingsByKind"
          },
          "final": {
            "type": "boolean",
            "description": "False for today's point, at most 10 minutes old and still moving; past points are final snapshots."
          }
        }
      },
      "PolicyHistory": {
        "type": "object",
        "required": [
          "policyId",
          "name",
          "points"
        ],
        "properties": {
          "policyId": {
            "$ref": "#/components/schemas/Id"
          },
          "name": {
            "type": "string",
            "description": "The policy's name now.",
            "example": "Baseline"
          },
          "points": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "date",
                "hosts",
                "compliancePercent"
              ],
              "properties": {
                "date": {
                  "type": "string",
                  "format": "date"
                },
                "hosts": {
                  "$ref": "#/components/schemas/HostsByCompliance"
                },
                "compliancePercent": {
                  "type": "number",
                  "nullable": true
                }
              }
            }
          }
        }
      },
      "ComplianceHistory": {
        "type": "object",
        "required": [
          "from",
          "to",
          "interval",
          "policyId",
          "group",
          "customer",
          "points",
          "policies"
        ],
        "properties": {
          "from": {
            "type": "string",
            "format": "date"
          },
          "to": {
            "type": "string",
            "format": "date"
          },
          "interval": {
            "type": "string",
            "enum": [
              "day",
              "week"
            ]
          },
          "policyId": {
            "type": "string",
            "format": "uuid",
            "nullable": true
          },
          "group": {
            "type": "string",
            "nullable": true
          },
          "customer": {
            "type": "string",
            "nullable": true
          },
          "points": {
            "type": "array",
            "description": "The fleet's (or the policy's, group's or customer's) figures, oldest first.",
            "items": {
              "$ref": "#/components/schemas/CompliancePoint"
            }
          },
          "policies": {
            "type": "array",
            "description": "The same hosts' compliance per policy, each policy that existed in the window.",
            "items": {
              "$ref": "#/components/schemas/PolicyHistory"
            }
          }
        }
      },
      "ComplianceHistoryRow": {
        "type": "object",
        "required": [
          "date",
          "policyId",
          "policyName",
          "group",
          "customer",
          "compliant",
          "noncompliant",
          "accepted",
          "unknown",
          "compliancePercent",
          "openWarnings",
          "openSuggestions",
          "acceptedFindings",
          "final"
        ],
        "properties": {
          "date": {
            "type": "string",
            "format": "date"
          },
          "policyId": {
            "type": "string",
            "format": "uuid",
            "nullable": true,
            "description": "Null: over every policy."
          },
          "policyName": {
            "type": "string",
            "nullable": true
          },
          "group": {
            "type": "string",
            "nullable": true
          },
          "customer": {
            "type": "string",
            "nullable": true
          },
          "compliant": {
            "type": "integer"
          },
          "noncompliant": {
            "type": "integer"
          },
          "accepted": {
            "type": "integer"
          },
          "unknown": {
            "type": "integer"
          },
          "compliancePercent": {
            "type": "number",
            "nullable": true
          },
          "openWarnings": {
            "type": "integer",
            "nullable": true,
            "description": "Null on policy rows."
          },
          "openSuggestions": {
            "type": "integer",
            "nullable": true
          },
          "acceptedFindings": {
            "type": "integer",
            "nullable": true
          },
          "final": {
            "type": "boolean"
          }
        }
      },
      "ControlRef": {
        "type": "string",
        "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,39}:\\S{1,64}$",
        "description": "A control of a framework, `FRAMEWORK:CONTROL-ID`.",
        "example": "CIS:5.2.10"
      },
      "FrameworkName": {
        "type": "string",
        "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$",
        "example": "CIS"
      },
      "ControlEvidenceRule": {
        "type": "object",
        "required": [
          "policyId",
          "policyName",
          "ruleId",
          "pass",
          "fail",
          "error",
          "waived"
        ],
        "properties": {
          "policyId": {
            "$ref": "#/components/schemas/Id"
          },
          "policyName": {
            "type": "string",
            "example": "Baseline"
          },
          "ruleId": {
            "$ref": "#/components/schemas/RuleId"
          },
          "pass": {
            "type": "integer"
          },
          "fail": {
            "type": "integer"
          },
          "error": {
            "type": "integer"
          },
          "waived": {
            "type": "integer"
          }
        }
      },
      "ControlEvidenceFinding": {
        "type": "object",
        "required": [
          "kind",
          "testId",
          "openHosts",
          "acceptedHosts"
        ],
        "properties": {
          "kind": {
            "$ref": "#/components/schemas/FindingKind"
          },
          "testId": {
            "$ref": "#/components/schemas/TestId"
          },
          "openHosts": {
            "type": "integer",
            "description": "Hosts where it is open, acknowledged or regressed."
          },
          "acceptedHosts": {
            "type": "integer"
          }
        }
      },
      "ControlFailingHost": {
        "type": "object",
        "required": [
          "hostRecordId",
          "hostname",
          "because"
        ],
        "properties": {
          "hostRecordId": {
            "$ref": "#/components/schemas/Id"
          },
          "hostname": {
            "type": "string",
            "nullable": true,
            "example": "web-01"
          },
          "because": {
            "type": "array",
            "description": "The failing rules (`policyName/ruleId`) and open findings (test ids) behind it.",
            "items": {
              "type": "string"
            },
            "example": [
              "Baseline/firewall-active",
              "SSH-7408"
            ]
          }
        }
      },
      "Control": {
        "type": "object",
        "required": [
          "framework",
          "controlId",
          "title",
          "testIds",
          "ruleIds",
          "sources",
          "hosts",
          "evidence",
          "failingHosts"
        ],
        "properties": {
          "framework": {
            "type": "string",
            "example": "CIS"
          },
          "controlId": {
            "type": "string",
            "example": "5.2.10"
          },
          "title": {
            "type": "string",
            "nullable": true,
            "example": "Ensure SSH root login is disabled"
          },
          "testIds": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/TestId"
            }
          },
          "ruleIds": {
            "type": "array",
            "description": "Rule ids from the mapping file (any policy's rule with that id) and `policyName/ruleId` of rules whose `controls` name it.",
            "items": {
              "type": "string"
            }
          },
          "sources": {
            "type": "array",
            "items": {
              "type": "string",
              "enum": [
                "file",
                "policy"
              ]
            }
          },
          "hosts": {
            "type": "object",
            "required": [
              "passing",
              "failing",
              "unknown"
            ],
            "properties": {
              "passing": {
                "type": "integer",
                "description": "Every mapped rule passes or is waived, and no mapped finding is open."
              },
              "failing": {
                "type": "integer"
              },
              "unknown": {
                "type": "integer",
                "description": "No mapped rule has a result for the host and no mapped finding is open."
              }
            }
          },
          "evidence": {
            "type": "object",
            "required": [
              "rules",
              "findings"
            ],
            "properties": {
              "rules": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/ControlEvidenceRule"
                }
              },
              "findings": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/ControlEvidenceFinding"
                }
              }
            }
          },
          "failingHosts": {
            "type": "array",
            "maxItems": 20,
            "items": {
              "$ref": "#/components/schemas/ControlFailingHost"
            }
          }
        }
      },
      "ControlReport": {
        "type": "object",
        "required": [
          "frameworks",
          "framework",
          "controls"
        ],
        "properties": {
          "frameworks": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "name",
                "controls"
              ],
              "properties": {
                "name": {
                  "type": "string",
                  "example": "CIS"
                },
                "controls": {
                  "type": "integer",
                  "example": 42
                }
              }
            }
          },
          "framework": {
            "type": "string",
            "nullable": true,
            "description": "The framework listed, as spelled in the mapping; null without `framework`."
          },
          "controls": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Control"
            }
          }
        }
      },
      "ControlImportResult": {
        "type": "object",
        "required": [
          "frameworks",
          "controls"
        ],
        "properties": {
          "frameworks": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "example": [
              "EXAMPLE"
            ]
          },
          "controls": {
            "type": "integer",
            "example": 4
          }
        }
      },
      "DigestScope": {
        "type": "object",
        "description": "Neither (the fleet), a system group, or a customer.",
        "properties": {
          "group": {
            "type": "string",
            "nullable": true,
            "maxLength": 255
          },
          "customer": {
            "type": "string",
            "nullable": true,
            "maxLength": 255
          }
        }
      },
      "DigestCadence": {
        "type": "string",
        "enum": [
          "weekly",
          "monthly"
        ]
      },
      "DigestScheduleInput": {
        "type": "object",
        "required": [
          "scope",
          "cadence",
          "recipients"
        ],
        "properties": {
          "scope": {
            "$ref": "#/components/schemas/DigestScope"
          },
          "cadence": {
            "$ref": "#/components/schemas/DigestCadence"
          },
          "recipients": {
            "type": "array",
            "minItems": 1,
            "maxItems": 50,
            "items": {
              "type": "string",
              "format": "email",
              "maxLength": 254
            }
          }
        }
      },
      "DigestSchedule": {
        "allOf": [
          {
            "$ref": "#/components/schemas/DigestScheduleInput"
          },
          {
            "type": "object",
            "required": [
              "id",
              "createdAt",
              "createdBy",
              "lastIssuedAt",
              "nextDueAt"
            ],
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "createdAt": {
                "type": "string",
                "format": "date-time"
              },
              "createdBy": {
                "type": "string",
                "nullable": true
              },
              "lastIssuedAt": {
                "type": "string",
                "format": "date-time",
                "nullable": true
              },
              "nextDueAt": {
                "type": "string",
                "format": "date-time"
              }
            }
          }
        ]
      },
      "DigestScheduleList": {
        "type": "object",
        "required": [
          "items"
        ],
        "properties": {
          "items": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DigestSchedule"
            }
          }
        }
      },
      "DigestDeliveryStatus": {
        "type": "string",
        "enum": [
          "pending",
          "sent",
          "failed",
          "skipped"
        ]
      },
      "DigestDelivery": {
        "type": "object",
        "required": [
          "status",
          "attempts",
          "lastError",
          "nextAttemptAt",
          "sentAt"
        ],
        "properties": {
          "status": {
            "$ref": "#/components/schemas/DigestDeliveryStatus"
          },
          "attempts": {
            "type": "integer"
          },
          "lastError": {
            "type": "string",
            "nullable": true,
            "description": "Why the last attempt failed (no credentials in it)."
          },
          "nextAttemptAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          },
          "sentAt": {
            "type": "string",
            "format": "date-time",
            "nullable": true
          }
        }
      },
      "DigestFinding": {
        "type": "object",
        "required": [
          "findingId",
          "hostRecordId",
          "hostname",
          "kind",
          "testId",
          "text",
          "at"
        ],
        "properties": {
          "findingId": {
            "$ref": "#/components/schemas/Id"
          },
          "hostRecordId": {
            "$ref": "#/components/schemas/Id"
          },
          "hostname": {
            "type": "string",
            "nullable": true
          },
          "kind": {
            "$ref": "#/components/schemas/FindingKind"
          },
          "testId": {
            "$ref": "#/components/schemas/TestId"
          },
          "text": {
            "type": "string"
          },
          "at": {
            "type": "string",
            "format": "date-time",
            "description": "When it regressed, was first seen, or its acceptance expires."
          }
        }
      },
      "DigestExpiringWaiver": {
        "type": "object",
        "required": [
          "waiverId",
          "policyName",
          "ruleId",
          "target",
          "expiresAt"
        ],
        "properties": {
          "waiverId": {
            "$ref": "#/components/schemas/Id"
          },
          "policyName": {
            "type": "string"
          },
          "ruleId": {
            "type": "string",
            "nullable": true
          },
          "target": {
            "type": "string",
            "description": "The host name or group the waiver covers."
          },
          "expiresAt": {
            "type": "string",
            "format": "date-time"
          }
        }
      },
      "DigestContent": {
        "type": "object",
        "required": [
          "compliance",
          "topRegressions",
          "oldestOpen",
          "expiringAcceptances",
          "expiringWaivers"
        ],
        "properties": {
          "compliance": {
            "type": "object",
            "required": [
              "now",
              "before",
              "changePoints"
            ],
            "properties": {
              "now": {
                "$ref": "#/components/schemas/CompliancePoint"
              },
              "before": {
                "type": "object",
                "description": "At the period's start; null when no snapshot reaches back that far.",
                "nullable": true,
                "allOf": [
                  {
                    "$ref": "#/components/schemas/CompliancePoint"
                  }
                ]
              },
              "changePoints": {
                "type": "number",
                "nullable": true,
                "description": "Change of `compliancePercent` over the period, in points."
              }
            }
          },
          "topRegressions": {
            "type": "array",
            "maxItems": 10,
            "items": {
              "$ref": "#/components/schemas/DigestFinding"
            }
          },
          "oldestOpen": {
            "type": "array",
            "maxItems": 10,
            "items": {
              "$ref": "#/components/schemas/DigestFinding"
            }
          },
          "expiringAcceptances": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DigestFinding"
            }
          },
          "expiringWaivers": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DigestExpiringWaiver"
            }
          }
        }
      },
      "Digest": {
        "type": "object",
        "required": [
          "id",
          "scheduleId",
          "scope",
          "cadence",
          "periodStart",
          "periodEnd",
          "createdAt",
          "link",
          "delivery"
        ],
        "properties": {
          "id": {
            "$ref": "#/components/schemas/Id"
          },
          "scheduleId": {
            "type": "string",
            "format": "uuid",
            "nullable": true,
            "description": "Null once the schedule is deleted."
          },
          "scope": {
            "$ref": "#/components/schemas/DigestScope"
          },
          "cadence": {
            "$ref": "#/components/schemas/DigestCadence"
          },
          "periodStart": {
            "type": "string",
            "format": "date-time"
          },
          "periodEnd": {
            "type": "string",
            "format": "date-time"
          },
          "createdAt": {
            "type": "string",
            "format": "date-time"
          },
          "link": {
            "type": "string",
            "description": "The printable page, a path under the dashboard (absolute when the server knows its public address).",
            "example": "/dashboard/digests/0f8fad5b-d9cb-469f-a165-70867728950e"
          },
          "delivery": {
            "$ref": "#/components/schemas/DigestDelivery"
          },
          "content": {
            "description": "The figures; in `getDigest` and `issueDigest` only.",
            "allOf": [
              {
                "$ref": "#/components/schemas/DigestContent"
              }
            ]
          }
        }
      },
      "DigestPage": {
        "allOf": [
          {
            "$ref": "#/components/schemas/Page"
          },
          {
            "type": "object",
            "required": [
              "items"
            ],
            "properties": {
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Digest"
                }
              }
            }
          }
        ]
      },
      "ForbiddenProblem": {
        "description": "A request refused because the token's role is below the one the operation requires.",
        "allOf": [
          {
            "$ref": "#/components/schemas/Problem"
          },
          {
            "type": "object",
            "required": [
              "code",
              "requiredRole",
              "role"
            ],
            "properties": {
              "code": {
                "type": "string",
                "enum": [
                  "forbidden"
                ]
              },
              "requiredRole": {
                "$ref": "#/components/schemas/AdminRole"
              },
              "role": {
                "$ref": "#/components/schemas/AdminRole"
              }
            }
          }
        ]
      },
      "Problem": {
        "type": "object",
        "description": "An error, as RFC 9457 describes (`application/problem+json`).",
        "required": [
          "type",
          "title",
          "status"
        ],
        "properties": {
          "type": {
            "type": "string",
            "example": "about:blank"
          },
          "title": {
            "type": "string",
            "example": "Not Found"
          },
          "status": {
            "type": "integer",
            "example": 404
          },
          "detail": {
            "type": "string",
            "example": "No report with id 0f8fad5b-d9cb-469f-a165-70867728950e"
          }
        }
      }
    },
    "callbacks": {
      "WebhookDelivery": {
        "{$request.body#/url}": {
          "post": {
            "operationId": "webhookDelivery",
            "summary": "An event delivered to the subscription's URL",
            "description": "Documentation of what the server sends, not an operation it serves. Each event the subscription chose\n(and `events.folded`) is a POST signed as Standard Webhooks says (`webhook-id`, the same on every\nattempt, `webhook-timestamp`, `webhook-signature`). With `format: standard` the body is the envelope\nbelow; with `format: slack` it is a Slack-compatible `{\"text\": …}` message instead.\n",
            "requestBody": {
              "required": true,
              "content": {
                "application/json": {
                  "schema": {
                    "type": "object",
                    "required": [
                      "type",
                      "timestamp",
                      "data"
                    ],
                    "properties": {
                      "type": {
                        "$ref": "#/components/schemas/DeliveryEventType"
                      },
                      "timestamp": {
                        "type": "string",
                        "format": "date-time"
                      },
                      "data": {
                        "description": "The event's fields: an `UploadsRefusedEventData` for `uploads.refused`, an\n`EventsFoldedEventData` for `events.folded`, and for the other types the fields\n`WebhookEventType` lists.\n",
                        "anyOf": [
                          {
                            "$ref": "#/components/schemas/UploadsRefusedEventData"
                          },
                          {
                            "$ref": "#/components/schemas/EventsFoldedEventData"
                          },
                          {
                            "type": "object"
                          }
                        ]
                      }
                    }
                  }
                }
              }
            },
            "responses": {
              "2XX": {
                "description": "Delivered. Any other answer, or none within 10 s, is tried again later, 10 attempts in all."
              },
              "4XX": {
                "description": "Not delivered; tried again later like any answer that is not 2xx."
              }
            }
          }
        }
      }
    },
    "parameters": {
      "HostnameFilter": {
        "name": "hostname",
        "in": "query",
        "description": "Only hosts whose latest report names a host name containing this text (case-insensitive, matched\nliterally: `%` and `_` are no wildcards). Control characters are refused.\n",
        "schema": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255,
          "pattern": "^[^\\u0000-\\u001F\\u007F]+$"
        }
      },
      "KeyIdFilter": {
        "name": "keyId",
        "in": "query",
        "description": "Only hosts that upload with this license key.",
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "HostIdFilter": {
        "name": "hostId",
        "in": "query",
        "description": "Only hosts with this `hostid`.",
        "schema": {
          "$ref": "#/components/schemas/HostId"
        }
      },
      "GroupFilter": {
        "name": "group",
        "in": "query",
        "description": "Only hosts whose latest report lists this group in `system-groups=`, compared case-insensitively\n(`WEBSERVERS` finds `webservers`); `GET /api/admin/facets` suggests the known ones.\n",
        "schema": {
          "$ref": "#/components/schemas/LabelFilter"
        }
      },
      "TagFilter": {
        "name": "tag",
        "in": "query",
        "description": "Only hosts whose latest report lists this tag in `tags=`, compared case-insensitively.",
        "schema": {
          "$ref": "#/components/schemas/LabelFilter"
        }
      },
      "OsFilter": {
        "name": "os",
        "in": "query",
        "description": "Only hosts whose operating system (`Host.os`) is this, compared case-insensitively.",
        "schema": {
          "$ref": "#/components/schemas/LabelFilter"
        }
      },
      "FindingFilter": {
        "name": "finding",
        "in": "query",
        "description": "Only hosts whose latest report has a warning or suggestion with this test id.",
        "schema": {
          "$ref": "#/components/schemas/TestId"
        }
      },
      "FindingKindFilter": {
        "name": "findingKind",
        "in": "query",
        "description": "With `finding`, only warnings or only suggestions.",
        "schema": {
          "$ref": "#/components/schemas/FindingKind"
        }
      },
      "SeenBefore": {
        "name": "seenBefore",
        "in": "query",
        "description": "Only hosts whose last report arrived before this time (stale hosts).",
        "schema": {
          "type": "string",
          "format": "date-time",
          "example": "2026-11-15T00:00:00.000Z"
        }
      },
      "HostSort": {
        "name": "sort",
        "in": "query",
        "description": "Order of the hosts: `lastSeen` (default), `hostname`, `hardeningIndex`, `warnings` (the latest\nreport's warning count) or `compliance` (`desc`: `noncompliant`, `waived`, `compliant`, then `unknown`;\n`asc` the other way round, `unknown` still last). Hosts without a value come last either way; ties by id.\n",
        "schema": {
          "type": "string",
          "enum": [
            "lastSeen",
            "hostname",
            "hardeningIndex",
            "warnings",
            "compliance"
          ],
          "default": "lastSeen"
        }
      },
      "ComplianceFilter": {
        "name": "compliance",
        "in": "query",
        "description": "Only hosts with this compliance (`Host.compliance`, waivers applied as of the request).",
        "schema": {
          "$ref": "#/components/schemas/HostComplianceState"
        }
      },
      "FailingPolicyFilter": {
        "name": "failingPolicy",
        "in": "query",
        "description": "Only hosts that fail (or err on) a rule of this policy that no unexpired waiver covers.",
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "FailingRuleFilter": {
        "name": "failingRule",
        "in": "query",
        "description": "Only hosts that fail (or err on) the rule with this id, of `failingPolicy` when it is given (else of any\npolicy), and that no unexpired waiver covers.\n",
        "schema": {
          "$ref": "#/components/schemas/RuleId"
        }
      },
      "HostRecordIdsFilter": {
        "name": "ids",
        "in": "query",
        "description": "Only these hosts (`Host.id`), comma-separated, at most 500: the hosts an operator selected.",
        "style": "form",
        "explode": false,
        "schema": {
          "type": "array",
          "minItems": 1,
          "maxItems": 500,
          "items": {
            "$ref": "#/components/schemas/Id"
          }
        }
      },
      "FindingStateFilter": {
        "name": "state",
        "in": "query",
        "description": "Only findings in these states, comma-separated (default all).",
        "style": "form",
        "explode": false,
        "schema": {
          "type": "array",
          "maxItems": 5,
          "items": {
            "$ref": "#/components/schemas/FindingState"
          }
        }
      },
      "HostStateFilter": {
        "name": "state",
        "in": "query",
        "description": "Hosts in this lifecycle state (`Host.state`); `current` (default): active and stale hosts, leaving out\ndecommissioned ones; `all`: every host.\n",
        "schema": {
          "type": "string",
          "enum": [
            "current",
            "active",
            "stale",
            "decommissioned",
            "all"
          ],
          "default": "current"
        }
      },
      "HostOrder": {
        "name": "order",
        "in": "query",
        "description": "`desc` (default) or `asc`.",
        "schema": {
          "type": "string",
          "enum": [
            "asc",
            "desc"
          ],
          "default": "desc"
        }
      },
      "WebhookId": {
        "name": "webhookId",
        "in": "path",
        "required": true,
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "PolicyId": {
        "name": "policyId",
        "in": "path",
        "required": true,
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "Limit": {
        "name": "limit",
        "in": "query",
        "description": "Most items on the page.",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 500,
          "default": 50
        }
      },
      "Offset": {
        "name": "offset",
        "in": "query",
        "description": "Items to skip before the page starts.",
        "schema": {
          "type": "integer",
          "minimum": 0,
          "maximum": 1000000000,
          "default": 0
        }
      },
      "ReportId": {
        "name": "reportId",
        "in": "path",
        "required": true,
        "description": "The report's id, as the upload's `OK <id>` answer gave it.",
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "TokenId": {
        "name": "tokenId",
        "in": "path",
        "required": true,
        "description": "The token's id (`AdminTokenInfo.id`), never the token itself.",
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "UserId": {
        "name": "userId",
        "in": "path",
        "required": true,
        "description": "The account's id (`User.id`).",
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "KeyId": {
        "name": "keyId",
        "in": "path",
        "required": true,
        "description": "The license key's id (`LicenseKeyInfo.id`), never the key itself.",
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "AsOf": {
        "name": "at",
        "in": "query",
        "description": "Answer as of this moment instead of now: a date (`2026-10-01`, meaning the end of that UTC day) or a\ndate-time. Each host's latest report received by then, with the policy versions and waivers in force then;\nhosts first seen later are left out. Answers for a past moment do not change when later reports arrive.\n",
        "schema": {
          "$ref": "#/components/schemas/Moment"
        }
      },
      "HistoryFrom": {
        "name": "from",
        "in": "query",
        "description": "The first day (UTC), `YYYY-MM-DD`. Default 30 days before `to`; at most 731 days before it.",
        "schema": {
          "type": "string",
          "format": "date"
        }
      },
      "HistoryTo": {
        "name": "to",
        "in": "query",
        "description": "The last day (UTC), `YYYY-MM-DD`. Default today; a later day is refused.",
        "schema": {
          "type": "string",
          "format": "date"
        }
      },
      "HistoryInterval": {
        "name": "interval",
        "in": "query",
        "description": "`day` (default) or `week` (weeks start on Monday; each point is as of the end of its last day).",
        "schema": {
          "type": "string",
          "enum": [
            "day",
            "week"
          ],
          "default": "day"
        }
      },
      "HistoryPolicy": {
        "name": "policyId",
        "in": "query",
        "description": "Only this policy's compliance.",
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "HistoryGroup": {
        "name": "group",
        "in": "query",
        "description": "Only the hosts of this system group (as their latest report then listed it), compared case-insensitively.",
        "schema": {
          "$ref": "#/components/schemas/LabelFilter"
        }
      },
      "HistoryCustomer": {
        "name": "customer",
        "in": "query",
        "description": "Only the hosts of this customer (`system-customer-name=`), compared case-insensitively.",
        "schema": {
          "$ref": "#/components/schemas/LabelFilter"
        }
      },
      "ScheduleId": {
        "name": "scheduleId",
        "in": "path",
        "required": true,
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      },
      "DigestId": {
        "name": "digestId",
        "in": "path",
        "required": true,
        "schema": {
          "$ref": "#/components/schemas/Id"
        }
      }
    },
    "requestBodies": {
      "PolicyInput": {
        "required": true,
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/PolicyInput"
            },
            "example": {
              "name": "Web servers",
              "scope": {
                "group": "webservers"
              },
              "rules": [
                {
                  "id": "hardening-index",
                  "expression": "summary.hardeningIndex >= 60"
                },
                {
                  "id": "no-vulnerable-packages",
                  "expression": "size(report.vulnerable_package) == 0"
                },
                {
                  "id": "firewall",
                  "expression": "report.firewall_active == '1'"
                }
              ]
            }
          }
        }
      },
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
              },
              "notAReport": {
                "summary": "data is not a finished Lynis report",
                "value": "Not a report: no finish=true line (Lynis writes it when the audit completed)"
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
        "description": "This client (its address, or its license key) sent too many requests, or too many with a wrong key; or,\nfor an upload from a host new to its license key, the key's quota of new hosts for the day (UTC) or of\nhosts is reached. Wait for the number of seconds in `Retry-After` (for the daily quota: until the next\nUTC day).\n",
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
              },
              "quota": {
                "summary": "The key's quota of new hosts is reached",
                "value": "Host quota exceeded: this license key enrolled its 10000 new hosts for today (UTC)"
              }
            }
          }
        }
      },
      "HostIdentityChanged": {
        "description": "The server runs in strict identity mode and the report's `hostid2` differs from the host's last one: the\nreport is not stored until an operator accepts the new identity (`POST\n/api/admin/hosts/{hostRecordId}/identity/accept`).\n",
        "content": {
          "text/plain": {
            "schema": {
              "type": "string"
            },
            "examples": {
              "changed": {
                "summary": "A different hostid2 for a known host",
                "value": "Host identity changed: hostid2 differs from the host's last one; an operator must accept it"
              }
            }
          }
        }
      },
      "ServerBusy": {
        "description": "The server cannot take the request now, and the client is not at fault: the request bodies it is\nreceiving already fill its memory budget, or its database or key store is unavailable. Nothing was\nstored. Try again after the number of seconds in `Retry-After`.\n",
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
                "summary": "The memory budget for request bodies is full",
                "value": "Server busy, try again later"
              },
              "unavailable": {
                "summary": "The database or key store failed",
                "value": "Service unavailable, try again later"
              }
            }
          }
        }
      },
      "RequestTimeout": {
        "description": "The request body arrived more slowly than the server's minimum rate, or not within its request\ntimeout. The connection is closed; nothing was stored.\n",
        "content": {
          "text/plain": {
            "schema": {
              "type": "string"
            },
            "examples": {
              "tooSlow": {
                "summary": "Body below the minimum rate",
                "value": "Request body too slow"
              }
            }
          }
        }
      },
      "ProblemInvalidPolicy": {
        "description": "The policy is invalid; `errors` names each rule whose expression does not check, and where, or that exceeds\nits evaluation budget on a large synthetic report (`position` null, the message naming the budget).\n",
        "content": {
          "application/problem+json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/Problem"
                },
                {
                  "type": "object",
                  "properties": {
                    "errors": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/RuleError"
                      }
                    }
                  }
                }
              ]
            },
            "example": {
              "type": "about:blank",
              "title": "Bad Request",
              "status": 400,
              "detail": "rule hardening-index: Unexpected token: EOF (at 26)",
              "errors": [
                {
                  "ruleId": "hardening-index",
                  "position": 26,
                  "message": "Unexpected token: EOF"
                }
              ]
            }
          }
        }
      },
      "ProblemBadRequest": {
        "description": "A parameter or the body is invalid; `detail` says which.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "example": {
              "type": "about:blank",
              "title": "Bad Request",
              "status": 400,
              "detail": "limit: must be <= 500"
            }
          }
        }
      },
      "ProblemUnauthorized": {
        "description": "No admin token, or one that is unknown or revoked.",
        "headers": {
          "WWW-Authenticate": {
            "description": "`Bearer`",
            "schema": {
              "type": "string",
              "example": "Bearer"
            }
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "example": {
              "type": "about:blank",
              "title": "Unauthorized",
              "status": 401,
              "detail": "Send a valid admin token as \"Authorization: Bearer <token>\""
            }
          }
        }
      },
      "ProblemForbidden": {
        "description": "The role of the token or person is below the role the operation requires (`x-required-role`), or a\nrequest signed in with the session cookie changes something without an `Origin` of this server (nor\n`Sec-Fetch-Site: same-origin`): refused as a possible cross-site request forgery.\n",
        "content": {
          "application/problem+json": {
            "schema": {
              "anyOf": [
                {
                  "$ref": "#/components/schemas/ForbiddenProblem"
                },
                {
                  "$ref": "#/components/schemas/Problem"
                }
              ]
            },
            "example": {
              "type": "about:blank",
              "title": "Forbidden",
              "status": 403,
              "code": "forbidden",
              "detail": "This operation requires the admin role; this token has the viewer role",
              "requiredRole": "admin",
              "role": "viewer"
            }
          }
        }
      },
      "ProblemNotFound": {
        "description": "Nothing has this id.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "example": {
              "type": "about:blank",
              "title": "Not Found",
              "status": 404,
              "detail": "No report with id 0f8fad5b-d9cb-469f-a165-70867728950e"
            }
          }
        }
      },
      "ProblemConflict": {
        "description": "The request conflicts with the current state, e.g. rotating a key that is revoked.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "example": {
              "type": "about:blank",
              "title": "Conflict",
              "status": 409,
              "detail": "The key is already revoked or expired"
            }
          }
        }
      },
      "ProblemTooLarge": {
        "description": "The JSON body is larger than the admin API accepts.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "ProblemUnsupportedMediaType": {
        "description": "The body is not `application/json`.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      },
      "ProblemUnavailable": {
        "description": "The database is unavailable, so the request (or its admin token) could not be checked or served; the\nclient is not at fault. Try again after the number of seconds in `Retry-After`.\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "example": {
              "type": "about:blank",
              "title": "Service Unavailable",
              "status": 503,
              "detail": "The database is unavailable; try again later"
            }
          }
        }
      },
      "ProblemInvalidCredentials": {
        "description": "The email is unknown, the password wrong or the account disabled; the answer does not say which.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "example": {
              "type": "about:blank",
              "title": "Unauthorized",
              "status": 401,
              "detail": "Invalid credentials"
            }
          }
        }
      },
      "ProblemTooManyRequests": {
        "description": "Too many requests from this address, or too many with a wrong admin token (the collectors' limits\ncount admin requests too). Wait for the number of seconds in `Retry-After`.\n",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "example": {
              "type": "about:blank",
              "title": "Too Many Requests",
              "status": 429,
              "detail": "Too many requests from this address"
            }
          }
        }
      }
    }
  }
} as Document;
