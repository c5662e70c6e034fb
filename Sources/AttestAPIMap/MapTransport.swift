/// Where a map driver's requests go: a server over HTTP, or (for `--dry-run`) an in-process emulation.
public protocol MapTransport: Sendable {
    /// A name for reports (the base URL).
    var name: String { get }
    func send(_ request: RenderedRequest) async throws -> MapResponse
}
