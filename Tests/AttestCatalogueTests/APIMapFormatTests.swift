import AttestCatalogue
import AttestAPIMap
import AttestConformance
import AttestVerifiers
import Foundation
import Testing

/// The API map format: every map the repository ships (apis/ and Examples/) satisfies apis/api-map.schema.json and
/// loads and validates against the catalogue, and a broken map is refused with the JSON pointer of the fault.
@Suite struct APIMapFormatTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var shippedMaps: [URL] {
        let apis = (try? FileManager.default.contentsOfDirectory(at: root.appendingPathComponent("apis"), includingPropertiesForKeys: nil)) ?? []
        let examples = (try? FileManager.default.contentsOfDirectory(at: root.appendingPathComponent("Examples"), includingPropertiesForKeys: nil)) ?? []
        return (apis.filter { $0.pathExtension == "json" && !$0.lastPathComponent.contains("schema") }
            + examples.map { $0.appendingPathComponent("api-map.json") }.filter { FileManager.default.fileExists(atPath: $0.path) })
            .sorted { $0.path < $1.path }
    }

    @Test func theShippedMapsAreTheThreeAPIsAndTheExample() {
        #expect(Self.shippedMaps.map(\.lastPathComponent) == ["api-map.json", "civiq.json", "fido.json", "striga.json"])
    }

    @Test(arguments: shippedMaps)
    func aShippedMapSatisfiesTheSchemaAndLoads(file: URL) throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.root.appendingPathComponent("apis/api-map.schema.json"))) as? [String: Any])
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        #expect(JSONSchemaValidator(root: schema).validate(document) == [])
        let map = try APIMap.load(contentsOf: file)
        try MapDriver.validate(map)
        let profile = try #require(BuiltinCatalogue.profiles.first { $0.families.contains(map.family) })
        try MapDriver.validate(map, against: try BuiltinCatalogue.cases(for: profile, seed: 1))
        #expect(!map.steps.isEmpty)
    }

    /// The fido map with one change, and the pointer and words its error must carry.
    static let faults: [(change: @Sendable (inout [String: Any]) -> Void, pointer: String, words: String)] = [
        ({ $0["format"] = "attest-harness-api-map/9" }, "/format", "expected \"attest-harness-api-map/1\""),
        ({ $0["sessions"] = "jar" }, "/sessions", "expected \"cookies\" or \"none\""),
        ({ $0["colour"] = "blue" }, "/colour", "unknown member"),
        ({ $0["family"] = "webauth" }, "/family", "unknown family"),
        ({ map in
            var steps = map["steps"] as! [String: Any]
            steps["webauthn.registraton"] = steps.removeValue(forKey: "webauthn.registration")
            map["steps"] = steps
        }, "/steps/webauthn.registraton", "no step kind"),
        ({ map in
            map["verdict"] = ["accept": ["status": "2xx"], "rules": ["42": "webauthn.nonexistent"]]
        }, "/verdict/rules/42", "no rule webauthn.nonexistent"),
        ({ map in
            map["verdict"] = ["reason": "body:/error"]
        }, "/verdict/reason", "not a response source"),
        ({ $0["verdict"] = ["refusalStatus": -5] }, "/verdict/refusalStatus", "400 to 599"),
        ({ $0["clock"] = ["header": "X-T\r\nX-Injected: 1"] }, "/clock/header", "not a header name"),
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) { $0["path"] = "/assertion/options?user={identity.username}" }
        }, "/steps/webauthn.assertion/exchanges/0/request/path", "no query"),
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) { $0["path"] = "/a/../../etc/passwd" }
        }, "/steps/webauthn.assertion/exchanges/0/request/path", ". and .. segments"),
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) { $0["method"] = "post" }
        }, "/steps/webauthn.assertion/exchanges/0/request/method", "in capitals"),
        ({ map in
            editRequest(&map, "webauthn.registration", 1) { request in
                var json = request["json"] as! [String: Any]
                var response = json["response"] as! [String: Any]
                response["clientDataJSON"] = ["$": "input.clientDataJSON", "as": "base65"]
                json["response"] = response
                request["json"] = json
            }
        }, "/steps/webauthn.registration/exchanges/1/request/json/response/clientDataJSON/as", "unknown encoding \"base65\""),
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) { $0["json"] = ["username": ["$": "identity.nobody"]] }
        }, "/steps/webauthn.assertion/exchanges/0", "identity.nobody is used but not declared"),
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) { $0["json"] = ["token": ["$": "env.HOME"]] }
        }, "/steps/webauthn.assertion/exchanges/0", "may only be used in a header"),
        // A header reading the secret does not let the same exchange use it in its body or its path.
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) {
                $0["headers"] = ["Authorization": ["$": "env.HOME"]]
                $0["json"] = ["token": ["$": "env.HOME"]]
            }
        }, "/steps/webauthn.assertion/exchanges/0", "may only be used in a header"),
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) {
                $0["headers"] = ["Authorization": ["$": "env.HOME"]]
                $0["path"] = "/users/{env.HOME}"
            }
        }, "/steps/webauthn.assertion/exchanges/0", "may only be used in a header"),
        // Sources are checked before any case runs: an input the family never sends, a parameter no profile has.
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) { $0["json"] = ["x": ["$": "input.challnge"]] }
        }, "/steps/webauthn.assertion/exchanges/0", "no input challnge"),
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) { $0["json"] = ["x": ["$": "parameter.rpid"]] }
        }, "/steps/webauthn.assertion/exchanges/0", "no parameter rpid"),
        ({ map in
            editRequest(&map, "webauthn.assertion", 0) { $0["json"] = ["x": ["$": "session.to\u{1B}[2Jken"]] }
        }, "/steps/webauthn.assertion/exchanges/0/request/json/x/$", "is not a name"),
        // Around the ceremony: an account field that reads an account field, a setup exchange that reads a case input.
        ({ map in
            map["accounts"] = ["per": "input.user", "pool": [["username": "alice", "login": ["$": "account.username"]]]]
        }, "/accounts/pool/0/login", "cannot read account.*"),
        ({ map in
            map["setup"] = ["session": [["request": ["method": "POST", "path": "/login", "json": ["x": ["$": "input.challenge"]]]]]]
        }, "/setup/session/0", "cannot read input.*"),
    ]

    /// Applies `change` to the request of exchange `index` of step kind `kind`.
    @Sendable static func editRequest(_ map: inout [String: Any], _ kind: String, _ index: Int, _ change: (inout [String: Any]) -> Void) {
        var steps = map["steps"] as! [String: Any]
        var step = steps[kind] as! [String: Any]
        var exchanges = step["exchanges"] as! [[String: Any]]
        var request = exchanges[index]["request"] as! [String: Any]
        change(&request)
        exchanges[index]["request"] = request
        step["exchanges"] = exchanges
        steps[kind] = step
        map["steps"] = steps
    }

    /// The cases a webauthn-l3 run judges, forged once for every fault.
    static let webAuthnCases = Result { try BuiltinCatalogue.cases(for: .webAuthnL3, seed: 1) }

    @Test(arguments: faults.indices)
    func aBrokenMapIsRefusedAtItsPointer(index: Int) throws {
        var map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.root.appendingPathComponent("apis/fido.json"))) as? [String: Any])
        let fault = Self.faults[index]
        fault.change(&map)
        let data = try JSONSerialization.data(withJSONObject: map)
        do {
            let loaded = try APIMap(json: try JSONValue.parse(data))
            try MapDriver.validate(loaded)
            try MapDriver.validate(loaded, against: try Self.webAuthnCases.get())
            Issue.record("the broken map was accepted (\(fault.pointer))")
        } catch let error as APIMapError {
            #expect(error.pointer == fault.pointer, "\(error)")
            #expect(error.message.contains(fault.words), "\(error)")
        }
    }

    @Test func aMapThatIsNotARegularFileIsRefusedWithoutReading() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("map.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: APIMapError.self) { try APIMap.load(contentsOf: fifo) }
        #expect(throws: APIMapError.self) { try APIMap.load(contentsOf: directory) }
    }

    /// A member named twice is refused at its pointer (JSONSerialization keeps one of the two; Python keeps the last),
    /// however its name is spelled with escapes; the same name in two objects is no duplicate.
    @Test func aMemberNamedTwiceIsRefusedAtItsPointer() throws {
        #expect(JSONDuplicateMembers.first(in: Data(#"{"a": 1, "b": {"c": [1, {"d": 1, "\u0064": 2}]}}"#.utf8)) == "/b/c/1/d")
        #expect(JSONDuplicateMembers.first(in: Data(#"{"steps": {}, "x~/y": 1, "x~/y": 2}"#.utf8)) == "/x~0~1y")
        #expect(JSONDuplicateMembers.first(in: Data(#"{"a": {"k": "\"}"}, "b": {"k": 1}, "s": "{\"a\": 1, \"a\": 2}"}"#.utf8)) == nil)
        #expect(JSONDuplicateMembers.first(in: Data(#"[{"a": 1}, {"a": 2}, [{"b": 1, "c": 2, "b": 3}]]"#.utf8)) == "/2/0/b")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let map = directory.appendingPathComponent("map.json")
        try Data(#"{"format": "attest-harness-api-map/1", "name": "a", "name": "b", "family": "webauthn", "steps": {}, "verdict": {}}"#.utf8).write(to: map)
        #expect { try APIMap.load(contentsOf: map) } throws: { ($0 as? APIMapError)?.pointer == "/name" }
    }

    @Test func anOversizedOrDeepMapIsRefusedBeforeUse() throws {
        #expect(throws: APIMapError.self) { try JSONValue.parse(Data(repeating: 0x20, count: APIMap.sizeLimit + 1)) }
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: APIMapError.self) { try JSONValue.parse(Data(deep.utf8)) }
    }

    /// A whole-target `$` path (a server's next URL, a case's own target) is held to what a written path may be: a
    /// value with dot segments, whitespace or control characters is refused, never sent as it came.
    @Test(arguments: ["/api/../admin", "/api/./x", "/%2e%2e/admin", "//evil.example/x", "/a b", "/a\u{0}b", "/a\u{85}"])
    func aWholeTargetWithDotSegmentsOrControlsIsRefused(target: String) throws {
        struct Values: TemplateValues {
            let target: String
            func value(_ source: ValueSource) throws -> [UInt8]? { Array(target.utf8) }
        }
        let path = try PathTemplate(try JSONValue.parse(Data(#"{"$": "session.next"}"#.utf8)), at: "/steps/x/exchanges/0/request/path")
        #expect(throws: APIMapError.self) { try path.render(Values(target: target), at: "/p") }
        #expect(try path.render(Values(target: "/api/v1/next?page=2"), at: "/p") == "/api/v1/next?page=2")
    }
}
