/// Two decoded evidence trees compared node by node (a mutant's against the valid case it came from), for the hunt's
/// triage page: what changed, what was added and what was removed, with the unchanged rest counted, not shown.
///
/// Nodes are matched among their siblings by their label without what describes the value (` (CBOR, 1646 bytes)`,
/// a DER element's ` @offset`), and by occurrence for repeated labels, so that a longer value or a shifted element is
/// a change of that node, not a removal and an addition of everything after it.
package struct EvidenceDiff: Hashable, Sendable {
    package enum Change: String, Hashable, Sendable {
        case same, changed, added, removed
    }

    /// The label: the mutant's, or the valid case's for a removed node.
    package let label: String
    /// The valid case's label where it differs from the mutant's (`bytes, 32` against `bytes, 33`).
    package let labelBefore: String?
    package let before: String?
    package let after: String?
    package let change: Change
    /// The children that differ (or contain a difference), in the mutant's order, removed ones last.
    package let children: [EvidenceDiff]
    /// How many children are the same in both and left out of `children`.
    package let unchanged: Int

    /// The differences between `before` (the valid case) and `after` (the mutant), unchanged nodes left out.
    package static func between(_ before: [EvidenceNode], _ after: [EvidenceNode]) -> [EvidenceDiff] {
        siblings(before, after).filter { $0.change != .same }
    }

    /// The match key of a label: without a parenthesised description and a trailing ` @offset`.
    package static func key(_ label: String) -> String {
        var key = label
        if let open = key.range(of: " (") { key = String(key[..<open.lowerBound]) }
        if let at = key.range(of: " @", options: .backwards), key[at.upperBound...].allSatisfy(\.isNumber), at.upperBound < key.endIndex {
            key = String(key[..<at.lowerBound])
        }
        return key
    }

    private static func siblings(_ before: [EvidenceNode], _ after: [EvidenceNode]) -> [EvidenceDiff] {
        var pool: [String: [Int]] = [:]
        for (index, node) in before.enumerated() { pool[key(node.label), default: []].append(index) }
        var matched = Set<Int>()
        var out: [EvidenceDiff] = []
        for node in after {
            let k = key(node.label)
            if var candidates = pool[k], !candidates.isEmpty {
                let index = candidates.removeFirst()
                pool[k] = candidates
                matched.insert(index)
                out.append(compare(before[index], node))
            } else {
                out.append(whole(node, as: .added))
            }
        }
        for (index, node) in before.enumerated() where !matched.contains(index) { out.append(whole(node, as: .removed)) }
        return out
    }

    private static func compare(_ before: EvidenceNode, _ after: EvidenceNode) -> EvidenceDiff {
        let children = siblings(before.children, after.children)
        let differing = children.filter { $0.change != .same }
        let same = before.label == after.label && before.value == after.value && differing.isEmpty
        return EvidenceDiff(label: after.label, labelBefore: before.label == after.label ? nil : before.label,
                            before: before.value, after: after.value, change: same ? .same : .changed,
                            children: differing, unchanged: children.count - differing.count)
    }

    private static func whole(_ node: EvidenceNode, as change: Change) -> EvidenceDiff {
        EvidenceDiff(label: node.label, labelBefore: nil, before: change == .removed ? node.value : nil,
                     after: change == .added ? node.value : nil, change: change,
                     children: node.children.map { whole($0, as: change) }, unchanged: 0)
    }
}
