internal import CAttestHTTPServer
import AttestCatalogue
import AttestConformance
import Foundation
import AttestReference
import AttestAPIMap

/// The reference verifier over HTTP (`attest-harness serve`), speaking attest-harness's own verdict protocol:
/// `POST /v1/cases` takes an exec suite document (vectors/exec-suite.schema.json) and answers a results document,
/// each case judged from fresh state under the server's own profile (a deployed server's policy is its own, not
/// the client's). `GET /v1/health` answers `{"status": "ok", "profile": ..., "harnessVersion": ..., "seed": ...}`, the
/// handshake `run` checks before any case. Bodies over the cap get 413, bad
/// JSON 400, unknown paths 404, all with `{"error": ...}`. With `association` it also publishes the
/// `/.well-known/` association files (`AssociationFiles`), and with `api` any API map's routes on every other path
/// (`MapEmulation`: the map's server in front of the reference verifier). Listens on 127.0.0.1 only.
public final class VerdictServer: @unchecked Sendable {
    public let profile: Profile
    public let association: AssociationFiles?
    private let emulation: MapEmulation?
    private let seed: UInt64
    private let verifier: ReferenceVerifier
    private var server: OpaquePointer?

    /// - Parameters:
    ///   - connectionTimeout: seconds a connection may stay idle within a request. Between requests (after its
    ///     accept, or after its previous answer) a connection is closed once idle for 2 s, or for 0.2 s while three
    ///     quarters of `maxConnections` are open, so a flood of idle connections cannot shut other clients out.
    ///   - requestDeadline: seconds a request may take to arrive whole and be answered (slow drips are cut off).
    ///   - maxConnections: connections open at once; `maxConnectionsPerClient` from one address.
    public init(profile: Profile, port: UInt16 = 0, maxBody: Int = 4 << 20, connectionTimeout: UInt32 = 30,
                requestDeadline: UInt32 = 10, maxConnections: UInt32 = 512, maxConnectionsPerClient: UInt32 = 256,
                name: String = "attest-harness serve", association: AssociationFiles? = nil,
                api: APIMap? = nil, seed: UInt64 = 1) throws {
        self.profile = profile
        self.association = association
        self.seed = seed
        emulation = try api.map { try MapEmulation(map: $0, profile: profile, seed: seed) }
        verifier = ReferenceVerifier(profile: profile, name: name)
        let handler: chttp_handler = { context, method, target, headers, body, length, response, responseLength, contentType, location, extraHeaders in
            // chttp_server.c passes every pointer but the body; a NULL would be a bug there: answer 500, never trap.
            guard let context, let methodText = method, let target, let headers, let response, let responseLength, let contentType,
                  let location, let extraHeaders else { return 500 }
            let server = Unmanaged<VerdictServer>.fromOpaque(context).takeUnretainedValue()
            let bytes = body.map { Data(bytes: $0, count: length) } ?? Data()
            let method = String(cString: methodText), path = String(cString: target)
            let status: UInt32, payload: Data
            if method == "GET", let file = server.association?.response(path) {
                (status, payload) = (file.status, file.body)
                contentType.pointee = UnsafeRawPointer(file.contentType.utf8Start).assumingMemoryBound(to: CChar.self)
                location.pointee = file.location.map { UnsafeRawPointer($0.utf8Start).assumingMemoryBound(to: CChar.self) }
            } else if let emulation = server.emulation, path != "/v1/cases", path != "/v1/health" {
                let headerText: String
                (status, payload, headerText) = emulation.handle(method: method, target: path, headers: VerdictServer.headers(String(cString: headers)),
                                                                 body: bytes)
                if !headerText.isEmpty, let copy = strdup(headerText) { extraHeaders.pointee = copy }
            } else {
                (status, payload) = server.handle(method: method, path: path, body: bytes)
            }
            // The glue frees the buffer with the response; without one (out of memory) it answers an empty body.
            guard let buffer = malloc(max(1, payload.count))?.assumingMemoryBound(to: UInt8.self) else { return 500 }
            payload.copyBytes(to: buffer, count: payload.count)
            response.pointee = buffer
            responseLength.pointee = payload.count
            return status
        }
        guard let started = chttp_start(port, maxBody, connectionTimeout, requestDeadline, maxConnections,
                                          maxConnectionsPerClient, handler, Unmanaged.passUnretained(self).toOpaque()) else {
            throw HarnessError("cannot listen on 127.0.0.1:\(port)")
        }
        server = started
    }

    deinit { stop() }

    /// "Name: value" lines, names as sent.
    static func headers(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
    }

    /// The port listened on (the one the system picked when asked for 0).
    public var port: UInt16 { server.map { chttp_port($0) } ?? 0 }

    public func stop() {
        if let server { chttp_stop(server) }
        server = nil
    }

    func handle(method: String, path: String, body: Data) -> (UInt32, Data) {
        func failure(_ status: UInt32, _ message: String) -> (UInt32, Data) {
            (status, (try? JSONEncoder.harness.encode(["error": message])) ?? Data())
        }
        switch (method, path) {
        case ("GET", "/v1/health"):
            // The handshake a client checks before any case: which profile this server judges by, and its version.
            return (200, (try? JSONEncoder.harness.encode(["status": "ok", "profile": profile.name,
                                                            "harnessVersion": HarnessVersion.current, "seed": String(seed)])) ?? Data())
        case ("POST", "/v1/cases"):
            let suite: ExecSuite
            do {
                suite = try JSONDecoder.harness.decode(ExecSuite.self, from: body)
            } catch {
                return failure(400, "the body is not an exec suite document: \(error.plainDescription)")
            }
            do {
                return (200, try JSONEncoder.harness.encode(try verifier.judge(suite)))
            } catch {
                return failure(422, "the suite cannot be judged: \(error)")
            }
        case (_, "/v1/health"), (_, "/v1/cases"):
            return failure(405, "\(method) is not allowed on \(path)")
        default:
            return failure(404, "no route \(method) \(path)")
        }
    }
}
