import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestServer
import AttestVerifiers
import Foundation
import Testing

/// What a deployed site needs around its ceremonies (issue 28), against the in-process emulation of one map: a
/// session setup that logs in with a form (password from the environment, a 302 answer, a CSRF cookie captured),
/// one Cookie header per request, the site's stated policy as the profile, and a replayed request sent byte for byte.
@Suite struct DeployedSiteMapTests {
    static let mapText = #"""
    {
      "format": "attest-harness-api-map/1", "name": "site", "family": "webauthn",
      "clock": {"header": "X-Test-Now"}, "sessions": "cookies",
      "identities": {"name": {"prefix": "user-", "per": "input.user"}},
      "cookies": {"theme": "dark"},
      "policy": {"rpId": "localhost", "origins": ["http://localhost:8741"], "appOrigins": false, "attestation": "none",
                 "userVerification": "preferred", "algorithms": [-7, -257]},
      "setup": {"session": [
        {"name": "login form", "request": {"method": "GET", "path": "/accounts/login/"},
         "capture": [{"from": "cookie:csrftoken", "store": "csrf"}]},
        {"name": "log in", "expect": [302],
         "request": {"method": "POST", "path": "/accounts/login/", "headers": {"X-CSRFToken": {"$text": "{session.csrf}"}},
                     "form": {"username": {"$": "identity.name"}, "password": {"$": "env.SITE_PASSWORD"}}}}
      ]},
      "steps": {
        "webauthn.registration": {
          "fresh": [{"value": "derived.attestedCredentialId", "as": "random"}],
          "exchanges": [
            {"name": "begin", "session": {"$": "input.challengeSession", "optional": true},
             "request": {"method": "POST", "path": "/register/begin", "headers": {"X-CSRFToken": {"$": "session.csrf"}}, "json": {"name": {"$": "identity.name"}}},
             "capture": [{"from": "json:/publicKey/challenge", "decode": "base64url", "replaces": "challenge"},
                         {"from": "json:/publicKey/user/id", "decode": "base64url", "replaces": "user", "per": "identity.name"}]},
            {"name": "finish", "request": {"method": "POST", "path": "/register/finish", "headers": {"X-CSRFToken": {"$": "session.csrf"}}, "json": {"$": "input.credentialJSON", "as": "json"}}}
          ]
        },
        "webauthn.assertion": {
          "exchanges": [
            {"name": "begin", "session": {"$": "input.challengeSession", "optional": true},
             "request": {"method": "POST", "path": "/login/begin", "headers": {"X-CSRFToken": {"$": "session.csrf"}}, "json": {"name": {"$": "identity.name"}}},
             "capture": [{"from": "json:/publicKey/challenge", "decode": "base64url", "replaces": "challenge"}]},
            {"name": "finish", "request": {"method": "POST", "path": "/login/finish", "headers": {"X-CSRFToken": {"$": "session.csrf"}}, "json": {"$": "input.credentialJSON", "as": "json"}}}
          ]
        }
      },
      "verdict": {"accept": {"status": [200]}, "reason": "json:/error"}
    }
    """#

    /// Every request the driver sends, as sent.
    final class Recorder: MapTransport, @unchecked Sendable {
        let inner: InProcessMapServer
        private let lock = NSLock()
        private(set) var requests: [RenderedRequest] = []
        init(_ inner: InProcessMapServer) { self.inner = inner }
        var name: String { inner.name }
        func record(_ request: RenderedRequest) { lock.withLock { requests.append(request) } }
        func send(_ request: RenderedRequest) async throws -> MapResponse {
            record(request)
            return try await inner.send(request)
        }
    }

    @Test func aLoggedInSiteIsJudgedByItsOwnPolicyAndAReplayIsSentAsRecorded() async throws {
        let map = try APIMap(json: try JSONValue.parse(Data(Self.mapText.utf8)))
        let profile = try BuiltinCatalogue.profile(.webAuthnL3, following: try #require(map.policy).stated, family: map.family)
        #expect(profile.parameters["origins"] == "http://localhost:8741")
        #expect(!profile.enforces(.webAuthnUserVerified) && !profile.enforces(.webAuthnAttestationRequired))
        #expect(profile.leavesToRelyingParty(.webAuthnUserVerified))
        #expect(profile.leavesToRelyingParty(.webAuthnAttestationSignature))
        let recorder = Recorder(try InProcessMapServer(map: map, profile: profile, seed: 1, name: "http://localhost:8741"))
        let secret = "correct horse battery staple"
        let lines = LockedLines()
        let driver = MapDriver(map: map, transport: recorder, seed: 1, environment: ["SITE_PASSWORD": secret]) { event in
            if case .request(let curl) = event { lines.append(curl) }
        }
        let wanted: Set<String> = ["webauthn.valid.none", "webauthn.challenge.singleUse.assertion-replayed", "webauthn.flags.userVerified.assertion"]
        let all = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let cases = Case.withControls(all.filter { wanted.contains($0.id) }, from: all)
        #expect(cases.count >= 3)
        let report = await Runner(profile: profile, verifier: driver).run(cases, seed: 1)
        for id in wanted {
            let result = try #require(report.results.first { $0.caseId == id })
            // UV is "preferred": the site's verdict on an assertion without it is its own choice, recorded.
            #expect(result.status == (id.hasPrefix("webauthn.flags.userVerified") ? .acceptable : .pass), "\(id): \(result.summary)")
        }
        // The replay step sent the assertion's completing request again, byte for byte.
        let finishes = recorder.requests.filter { $0.target == "/login/finish" }
        #expect(finishes.count >= 2)
        #expect(Set(finishes.map(\.body)).count < finishes.count)
        // Each session logged in (302 expected), and every request carried one Cookie header with the seeded cookie.
        #expect(recorder.requests.contains { $0.method == "POST" && $0.target == "/accounts/login/" })
        for request in recorder.requests where request.target != "/accounts/login/" || request.method == "POST" {
            let cookies = request.headers.filter { $0.name.caseInsensitiveCompare("Cookie") == .orderedSame }
            #expect(cookies.count == 1 && cookies[0].value.contains("theme=dark"), "\(request.method) \(request.target): \(cookies)")
        }
        // The password went out in the login form and nowhere a user can read it.
        #expect(recorder.requests.contains { String(decoding: $0.body, as: UTF8.self).contains("password=correct%20horse") })
        #expect(!lines.all.contains { $0.contains(secret) || $0.contains("correct%20horse") })
    }

    /// A login form's CSRF token lifted out of the page by a regular expression (a hidden field, as a Django form
    /// writes it) and a bearer token out of a header: the emulation writes each issued token into a text the map's
    /// pattern reads, checks that every later request sends it back, and so vouches for a map that captures this way.
    @Test func regexCapturesRunAgainstTheirOwnEmulation() async throws {
        let text = Self.mapText
            .replacingOccurrences(of: #"{"from": "cookie:csrftoken", "store": "csrf"}"#,
                                  with: #"{"from": "body", "regex": "<input type=\"hidden\" name=\"csrfmiddlewaretoken\" value=\"([^\"]+)\">", "store": "csrf"}, {"from": "header:X-Session", "regex": "^Bearer\\s+(\\w+)$", "store": "bearer"}"#)
            .replacingOccurrences(of: #""headers": {"X-CSRFToken": {"$text": "{session.csrf}"}},"#,
                                  with: #""headers": {"X-CSRFToken": {"$text": "{session.csrf}"}, "Authorization": {"$text": "Bearer {session.bearer}"}},"#)
        #expect(text != Self.mapText)
        let map = try APIMap(json: try JSONValue.parse(Data(text.utf8)))
        let profile = try BuiltinCatalogue.profile(.webAuthnL3, following: try #require(map.policy).stated, family: map.family)
        let recorder = Recorder(try InProcessMapServer(map: map, profile: profile, seed: 1, name: "http://localhost:8741"))
        let driver = MapDriver(map: map, transport: recorder, seed: 1, environment: ["SITE_PASSWORD": "pw"])
        let all = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let cases = all.filter { $0.id == "webauthn.valid.none" }
        let report = await Runner(profile: profile, verifier: driver).run(cases, seed: 1)
        let result = try #require(report.results.first)
        #expect(result.status == .pass, "\(result.summary)")
        // The login sent what the page and the header held: the emulation's 32-hex-digit tokens, not empty values.
        let login = try #require(recorder.requests.first { $0.method == "POST" && $0.target == "/accounts/login/" })
        let csrf = try #require(login.headers.first { $0.name == "X-CSRFToken" }?.value)
        let bearer = try #require(login.headers.first { $0.name == "Authorization" }?.value)
        #expect(csrf.count == 32 && csrf.allSatisfy(\.isHexDigit), "\(csrf)")
        #expect(bearer.hasPrefix("Bearer ") && bearer.count == 39, "\(bearer)")
        #expect(csrf != bearer.dropFirst(7))
        // A token the emulation did not issue is refused, so the pass above depended on the captures.
        var forged = login
        forged.headers = login.headers.map { $0.name == "X-CSRFToken" ? ($0.name, String(repeating: "0", count: 32)) : $0 }
        #expect(try await recorder.inner.send(forged).status == 403)
    }

    /// A replayed Play Integrity attest (issue 28 item 5, per-request): the driver sends the attest request again as
    /// it was recorded, and a server that forgets its challenges once used is caught on that replay alone, while one
    /// that remembers them refuses it under the rule.
    @Test func aReplayedAttestIsSentAsRecordedAndCaughtWhereChallengesAreNotSingleUse() async throws {
        let map = try APIMapLiveTests.map("civiq")
        let profile = try #require(BuiltinCatalogue.profile(named: "per-request-device-attestation"))
        let id = "request.challenge.singleUse.android-attest-replayed"
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1).filter { $0.id == id || $0.id == "request.valid.android" }
        #expect(cases.count == 2)
        for server in [profile, profile.without(.requestChallengeSingleUse)] {
            let recorder = Recorder(try InProcessMapServer(map: map, profile: server, seed: 1, name: "http://127.0.0.1:8080"))
            let driver = MapDriver(map: map, transport: recorder, seed: 1, environment: ["ATTEST_HARNESS_AUTHORIZATION": "test"])
            let report = await Runner(profile: profile, verifier: driver).run(cases, seed: 1)
            let result = try #require(report.results.first { $0.caseId == id })
            #expect(result.status == (server.enforces(.requestChallengeSingleUse) ? .pass : .finding), "\(result.summary)")
            let attests = recorder.requests.filter { $0.target == "/device/attest" }
            #expect(attests.count == 3)
            // The case's two attests: the replay is the first one, byte for byte, headers included.
            let replayed = attests.suffix(2).map { ($0.body, $0.headers.map { "\($0.name): \($0.value)" }) }
            #expect(replayed.count == 2 && replayed[0].0 == replayed[1].0 && replayed[0].1 == replayed[1].1)
        }
    }

    /// django-passkeys' map against its own emulation: a replayed verify request carries the CSRF token of its first
    /// sending, which the site has rotated since (the verify's answer sets a new one), and is still judged on its
    /// challenge: refused by a server that holds challenges to one use, let through by one that does not, so the
    /// emulation can vouch for the map's replay cases either way (it refused every replay on the stale token, and
    /// used its waiting ceremonies up whatever the profile said).
    @Test func anEmulatedReplayIsJudgedOnItsChallengeNotOnARotatedToken() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try Data(contentsOf: root.appendingPathComponent("Examples/DeployedServers/django-passkeys/api-map.json"))
        let map = try APIMap(json: try JSONValue.parse(text))
        let profile = try BuiltinCatalogue.profile(.webAuthnL3, following: try #require(map.policy).stated, family: map.family)
        let ids: Set<String> = ["webauthn.challenge.singleUse.assertion-replayed", "webauthn.challenge.singleUse.answered-twice",
                                "webauthn.challenge.singleUse.registration-answered-twice"]
        let all = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let cases = Case.withControls(all.filter { ids.contains($0.id) }, from: all)
        for server in [profile, profile.without(.webAuthnChallengeSingleUse)] {
            let emulation = try InProcessMapServer(map: map, profile: server, seed: 1, name: "http://localhost:8741")
            let driver = MapDriver(map: map, transport: emulation, seed: 1, environment: ["ATTEST_SITE_PASSWORD": "pw"])
            let report = await Runner(profile: profile, verifier: driver).run(cases, seed: 1)
            for id in ids {
                let result = try #require(report.results.first { $0.caseId == id })
                let enforced = server.enforces(.webAuthnChallengeSingleUse)
                #expect(result.status == (enforced ? .pass : .finding), "\(enforced) \(id): \(result.summary)")
                let reason = result.actual?.reason ?? ""
                #expect(reason.contains("session.csrf") == false, "\(id): \(result.summary)")
            }
        }
    }

    /// The jar seeded from the environment (a session cookie a user copied from a browser) goes out with the run
    /// setup too, once per run, in the one Cookie header, and is redacted from every request line shown.
    @Test func cookieSeedsFromTheEnvironmentReachTheRunSetupAndStaySecret() async throws {
        let text = Self.mapText
            .replacingOccurrences(of: #""cookies": {"theme": "dark"},"#,
                                  with: #""cookies": {"theme": "dark", "sid": {"$": "env.SITE_SESSION"}},"#)
            .replacingOccurrences(of: #""setup": {"session": ["#,
                                  with: #""setup": {"run": [{"name": "reset", "request": {"method": "POST", "path": "/test/reset"}}], "session": ["#)
        #expect(text.contains("env.SITE_SESSION") && text.contains("/test/reset"))
        let map = try APIMap(json: try JSONValue.parse(Data(text.utf8)))
        let profile = try BuiltinCatalogue.profile(.webAuthnL3, following: try #require(map.policy).stated, family: map.family)
        let recorder = Recorder(try InProcessMapServer(map: map, profile: profile, seed: 1, name: "http://localhost:8741"))
        let session = "s3ss10n-" + UUID().uuidString
        let lines = LockedLines()
        let driver = MapDriver(map: map, transport: recorder, seed: 1, environment: ["SITE_PASSWORD": "pw", "SITE_SESSION": session]) { event in
            if case .request(let curl) = event { lines.append(curl) }
        }
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1).filter { $0.id == "webauthn.valid.none" || $0.id == "webauthn.valid.packed" }
        let report = await Runner(profile: profile, verifier: driver).run(cases, seed: 1)
        #expect(report.errors.isEmpty, "\(report.errors.map(\.summary))")
        let resets = recorder.requests.filter { $0.target == "/test/reset" }
        #expect(resets.count == 1)
        let cookie = resets.first?.headers.filter { $0.name.caseInsensitiveCompare("Cookie") == .orderedSame }.map(\.value) ?? []
        #expect(cookie.count == 1 && cookie[0].contains("sid=\(session)") && cookie[0].contains("theme=dark"), "\(cookie)")
        let logins = recorder.requests.filter { $0.target == "/accounts/login/" && $0.method == "POST" }
        #expect(!logins.isEmpty && logins.allSatisfy { request in
            request.headers.contains { $0.name == "Cookie" && $0.value.contains("sid=\(session)") }
        })
        #expect(!lines.all.isEmpty && !lines.all.contains { $0.contains(session) })
    }

    /// A site that echoes the state token it handed out, JSON-escaped as Python writes it (a quote and a backslash
    /// escaped, `/` as `\/`, non-ASCII as `\uXXXX`), has it redacted from the verdict as it is when echoed as written.
    @Test func aStoredTokenEchoedJSONEscapedIsRedacted() async throws {
        final class EchoingSite: MapTransport, @unchecked Sendable {
            let token = "STATE\"TOKEN\\é/x-" + UUID().uuidString
            var name: String { "http://127.0.0.1:1" }
            func send(_ request: RenderedRequest) async throws -> MapResponse {
                switch (request.method, request.target) {
                case ("GET", "/auth/login/"): return MapResponse(status: 200, headers: [("Set-Cookie", "csrftoken=abcdefgh12345678; Path=/")], body: [])
                case ("POST", "/auth/login/"): return MapResponse(status: 302, headers: [("Location", "/")], body: [])
                case (_, "/api/passkeys/register/options"), (_, "/api/passkeys/authenticate/options"):
                    let body = try JSONSerialization.data(withJSONObject: ["state_token": token, "options": ["publicKey": [
                        "challenge": "AAECAwQFBgcICQoLDA0ODw", "user": ["id": "YWxpY2U"]]]])
                    return MapResponse(status: 200, headers: [], body: Array(body))
                default:
                    let python = #"STATE\"TOKEN\\\u00e9\/x-"# + token.dropFirst("STATE\"TOKEN\\é/x-".count)
                    return MapResponse(status: 400, headers: [], body: Array(#"{"detail": "bad state \#(python)"}"#.utf8))
                }
            }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let map = try APIMap(json: try JSONValue.parse(Data(contentsOf: root.appendingPathComponent("Examples/DeployedServers/django-passkeys/api-map.json"))))
        let profile = try BuiltinCatalogue.profile(.webAuthnL3, following: try #require(map.policy).stated, family: map.family)
        let site = EchoingSite()
        let driver = MapDriver(map: map, transport: site, seed: 1, environment: ["ATTEST_SITE_PASSWORD": "pw"])
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1).filter { $0.id == "webauthn.valid.none" }
        let report = await Runner(profile: profile, verifier: driver).run(cases, seed: 1)
        let reason = try #require(report.results.first?.actual?.reason, "\(report.results.map(\.summary))")
        #expect(reason.contains("bad state") && reason.contains("[redacted]"), "\(reason)")
        #expect(!reason.contains("TOKEN") && !reason.contains(String(site.token.suffix(36))), "\(reason)")
    }

    /// A step's refusal reads as a refused exchange does: a framework's error page as plain text (its reason past the
    /// markup), a redirect with where it points, a JSON member the map names as the server wrote it.
    @Test func aStepsRefusalReasonIsThePagesTextAndARedirectsLocation() throws {
        let verdict = try APIMap(json: try JSONValue.parse(Data(Self.mapText.replacingOccurrences(of: #""reason": "json:/error""#, with: #""reason": "body""#).utf8))).verdict
        let page = "<!DOCTYPE html><html><head><style>" + String(repeating: "h1 { color: red } ", count: 220) + "</style></head>"
            + "<body><h1>Forbidden <span>(403)</span></h1><p>CSRF verification failed. Request aborted.</p></body></html>"
        let refused = verdict.verdict(MapResponse(status: 403, headers: [], body: Array(page.utf8)))
        #expect(refused.outcome == .reject && refused.reason?.hasPrefix("HTTP 403: Forbidden (403) CSRF verification failed") == true, "\(refused.reason ?? "")")
        let redirected = verdict.verdict(MapResponse(status: 302, headers: [("Location", "/accounts/login/?next=/login/finish")], body: []))
        #expect(redirected.reason == "HTTP 302 (Location: /accounts/login/?next=/login/finish)", "\(redirected.reason ?? "")")
        let named = try APIMap(json: try JSONValue.parse(Data(Self.mapText.utf8))).verdict
            .verdict(MapResponse(status: 400, headers: [], body: Array(#"{"error": "challenge  does not match"}"#.utf8)))
        #expect(named.reason == "HTTP 400: challenge  does not match")
    }

    /// A refused exchange shows the reason a framework's error page gives past its markup, and reads a bounded prefix
    /// of a hostile body (40 KB of unclosed script tags, then text the summary must not reach).
    @Test func aRefusedExchangeSummaryShowsThePagesReasonFromABoundedPrefix() {
        let page = "<!DOCTYPE html><html><head><style>" + String(repeating: "h1 { color: red } ", count: 60) + "</style></head>"
            + "<body><h1>Forbidden <span>(403)</span></h1><p>CSRF verification failed. Request aborted.</p></body></html>"
        let summary = MapResponse(status: 403, headers: [], body: Array(page.utf8)).summary
        #expect(summary.hasPrefix("HTTP 403: Forbidden (403) CSRF verification failed"), "\(summary)")
        let redirect = MapResponse(status: 302, headers: [("Location", "/accounts/login/?next=/")], body: []).summary
        #expect(redirect == "HTTP 302 (Location: /accounts/login/?next=/)")
        let hostile = String(repeating: "<script>", count: 5_000) + "MARKER"
        #expect(!MapResponse(status: 400, headers: [], body: Array(hostile.utf8)).summary.contains("MARKER"))
    }

    @Test func aCookieJarHonoursDeletionAndExpiry() throws {
        var jar = CookieJar()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        jar.set("seed", "1")
        jar.take(MapResponse(status: 200, headers: [("Set-Cookie", "sessionid=abc; Path=/; HttpOnly"), ("Set-Cookie", "short=x; Max-Age=5")], body: []), at: now)
        #expect(jar.header(at: now) == "seed=1; sessionid=abc; short=x")
        #expect(jar.header(at: now.addingTimeInterval(10)) == "seed=1; sessionid=abc")
        jar.take(MapResponse(status: 200, headers: [("Set-Cookie", "sessionid=; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/")], body: []), at: now)
        #expect(jar.header(at: now) == "seed=1; short=x")
        #expect(MapCookie(setCookie: "bad name=1") == nil)
    }
}

/// Cases side by side on a pool of real accounts, end to end: every request is slowed so that cases overlap, each
/// request is tied to the account whose login made its session (the emulation's session cookie), and no account
/// ever has two requests in flight at once (a case's requests go one after another, so two at once would be two
/// cases on one account), while the cases do run side by side.
@Suite struct PooledAccountsInParallelTests {
    final class Watcher: MapTransport, @unchecked Sendable {
        let inner: InProcessMapServer
        private let lock = NSLock()
        private var accountOfSession: [String: String] = [:]
        private var inFlight: [String: Int] = [:]
        private(set) var overlaps: [String] = []
        private(set) var mostAtOnce = 0
        private var total = 0
        init(_ inner: InProcessMapServer) { self.inner = inner }
        var name: String { inner.name }

        static func session(_ headers: [(name: String, value: String)]) -> String? {
            headers.first { $0.name == "Cookie" }?.value.split(separator: ";")
                .map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("attest_harness_session=") }
        }

        func send(_ request: RenderedRequest) async throws -> MapResponse {
            let body = String(decoding: request.body, as: UTF8.self)
            let login = body.split(separator: "&").first { $0.hasPrefix("username=") }.map { String($0.dropFirst(9)) }
            let account: String? = lock.withLock {
                let session = Self.session(request.headers)
                if let login, let session { accountOfSession[session] = login }
                let account = login ?? session.flatMap { accountOfSession[$0] }
                if let account {
                    inFlight[account, default: 0] += 1
                    if inFlight[account, default: 0] > 1 { overlaps.append("\(account) \(request.method) \(request.target)") }
                }
                total += 1
                mostAtOnce = max(mostAtOnce, total)
                return account
            }
            try await Task.sleep(nanoseconds: 15_000_000)
            let response = try await inner.send(request)
            lock.withLock {
                if let account { inFlight[account, default: 0] -= 1 }
                total -= 1
                // The session cookie a login's answer sets belongs to that login's account.
                if let login, let set = response.headers.first(where: { $0.name == "Set-Cookie" && $0.value.hasPrefix("attest_harness_session=") }) {
                    accountOfSession[String(set.value.prefix { $0 != ";" })] = login
                }
            }
            return response
        }
    }

    @Test func casesOnAPoolOfFourAccountsNeverShareOne() async throws {
        let pool = (1...4).map { #"{"username": "user\#($0)", "password": {"$": "env.SITE_PASSWORD"}}"# }.joined(separator: ",")
        let text = DeployedSiteMapTests.mapText
            .replacingOccurrences(of: #""cookies": {"theme": "dark"},"#,
                                  with: #""cookies": {"theme": "dark"}, "accounts": {"per": "input.user", "pool": [\#(pool)]},"#)
            .replacingOccurrences(of: #""username": {"$": "identity.name"}"#, with: #""username": {"$": "account.username"}"#)
        #expect(text.contains("account.username") && text.contains("user4"))
        let map = try APIMap(json: try JSONValue.parse(Data(text.utf8)))
        let profile = try BuiltinCatalogue.profile(.webAuthnL3, following: try #require(map.policy).stated, family: map.family)
        let watcher = Watcher(try InProcessMapServer(map: map, profile: profile, seed: 1, name: "http://localhost:8741"))
        let driver = MapDriver(map: map, transport: watcher, seed: 1, environment: ["SITE_PASSWORD": "pw"])
        #expect(driver.concurrentCaseLimit == 2)
        let all = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let ids = ["webauthn.valid.none", "webauthn.signCount.lower", "webauthn.assertion.owner.other-user",
                   "webauthn.challenge.singleUse.assertion-replayed", "webauthn.clientData.challenge.other-challenge",
                   "webauthn.credentialId.unique.second-registration"]
        let cases = Case.withControls(all.filter { ids.contains($0.id) }, from: all)
        let report = await Runner(profile: profile, verifier: driver).run(cases, seed: 1, jobs: 4)
        #expect(report.errors.isEmpty, "\(report.errors.map(\.summary))")
        #expect(report.results.count == cases.count)
        #expect(watcher.overlaps.isEmpty, "\(watcher.overlaps.prefix(5))")
        #expect(watcher.mostAtOnce >= 2, "the cases never ran side by side")
    }
}

/// Lines gathered from a Sendable callback.
final class LockedLines: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

/// A pool's accounts are leased one case at a time: cases side by side never hold the same account, and the driver
/// lets no more cases run at once than the pool can give every simulated user an account of its own.
@Suite struct AccountLeaseTests {
    @Test func casesSideBySideHoldDisjointAccounts() throws {
        let leases = AccountLeases()
        let first = [leases.acquire(below: 4), leases.acquire(below: 4)].compactMap { $0 }
        let second = [leases.acquire(below: 4), leases.acquire(below: 4)].compactMap { $0 }
        #expect(first == [0, 1] && second == [2, 3])
        #expect(leases.acquire(below: 4) == nil)
        leases.release(first)
        #expect(leases.acquire(below: 4) == 0)

        // Five accounts, two simulated users at most per case: two cases at once. Without a pool (a fresh account
        // per simulated user) no limit; without accounts, one case at a time.
        let pool = (1...5).map { #"{"username": "user\#($0)", "password": {"$": "env.SITE_PASSWORD"}}"# }.joined(separator: ",")
        let pooled = DeployedSiteMapTests.mapText.replacingOccurrences(
            of: #""cookies": {"theme": "dark"},"#, with: #""cookies": {"theme": "dark"}, "accounts": {"per": "input.user", "pool": [\#(pool)]},"#)
        let fresh = DeployedSiteMapTests.mapText.replacingOccurrences(
            of: #""cookies": {"theme": "dark"},"#, with: #""cookies": {"theme": "dark"}, "accounts": {"per": "input.user"},"#)
        let limit = { (text: String) throws -> Int? in
            MapDriver(map: try APIMap(json: try JSONValue.parse(Data(text.utf8))), transport: HTTPMapTransport(baseURL: URL(fileURLWithPath: "/"), timeout: 1), seed: 1).concurrentCaseLimit
        }
        #expect(pooled != DeployedSiteMapTests.mapText && fresh != DeployedSiteMapTests.mapText)
        #expect(try limit(pooled) == 2)
        #expect(try limit(fresh) == nil)
        #expect(try limit(DeployedSiteMapTests.mapText) == 1)
    }
}
