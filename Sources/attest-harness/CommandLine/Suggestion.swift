/// "Did you mean": the known word closest to a mistyped one, when it is close enough to be the likely intent.
enum Suggestion {
    /// The word of `candidates` at the smallest edit distance from `word` (ties: the first), if that distance is at
    /// most a third of the longer word's length, and at least 1 character off.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(Array(word.lowercased()), Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let longest = max(word.count, best.0.count)
        return best.1 > 0 && best.1 * 3 <= longest ? best.0 : nil
    }

    /// Edit distance counting an insertion, a deletion, a substitution or a swap of two neighbours as one
    /// (optimal string alignment), on inputs of at most 256 characters each.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard a.count <= 256, b.count <= 256 else { return Int.max / 2 }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
