import AttestConformance
import Foundation

/// Everything a hunt knows, as it is kept on disk (`DIR/hunt.json`) between runs: a resumed hunt with the same
/// configuration goes on from `nextIndex` with its clusters; one with another configuration is refused.
package struct HuntState: Hashable, Sendable, Codable {
    package static let formatVersion = "attest-harness-hunt/1"

    package struct Configuration: Hashable, Sendable, Codable {
        package let profile: String
        /// The verifiers as given, in order (the order of each cluster's pattern).
        package let verifiers: [String]
        package let seed: UInt64
        /// `i/n`: this hunt draws the mutant numbers congruent to i modulo n.
        package let shard: Int
        package let shards: Int

        package init(profile: String, verifiers: [String], seed: UInt64, shard: Int = 0, shards: Int = 1) {
            self.profile = profile
            self.verifiers = verifiers
            self.seed = seed
            self.shard = shard
            self.shards = shards
        }
    }

    package var format = HuntState.formatVersion
    package let configuration: Configuration
    /// The next mutant number to try (in this shard's sequence: the mutant is `shard + nextIndex * shards`).
    package var nextIndex: UInt64 = 0
    package var mutantsTried: UInt64 = 0
    /// Mutants every verifier agreed on.
    package var agreements: UInt64 = 0
    /// Mutants whose mutation did not apply to the baseline drawn (skipped, not tried).
    package var inapplicable: UInt64 = 0
    /// Disagreements not kept because the cluster cap was reached.
    package var droppedClusters: UInt64 = 0
    /// Baselines left out because a verifier did not accept them (a mutant of them would prove nothing).
    package var excludedBaselines: [String: String] = [:]
    /// Seconds spent hunting over every run, and per verifier judging.
    package var elapsed: Double = 0
    package var verifierSeconds: [Double] = []
    package var clusters: [Cluster] = []
    /// Per verifier and rule (`coverageKey`): the catalogued cases of that rule the verifier accepts, i.e. whether
    /// the catalogue already catches it there. Filled for the rules clusters suggest.
    package var catalogueCatches: [String: [String]] = [:]
    /// Set on a state `merge` made: the shards it combines. Such a directory is for reports; it is not resumed.
    package var mergedShards: [Int]?

    package static func coverageKey(verifier: Int, rule: RuleID) -> String { "\(verifier)|\(rule.rawValue)" }

    package init(configuration: Configuration) {
        self.configuration = configuration
        verifierSeconds = Array(repeating: 0, count: configuration.verifiers.count)
    }

    /// At most this many clusters are kept (each holds one mutant case); later new patterns are counted as dropped.
    package static let clusterCap = 2_000

    /// Records `mutant`'s judgements: an agreement, a new cluster, or one more sighting (keeping the smaller mutant).
    package mutating func record(_ mutant: Mutant, _ judgements: [Judgement]) {
        mutantsTried += 1
        let pattern = judgements.map(\.verdictClass).joined()
        guard Set(pattern).count > 1 else {
            agreements += 1
            return
        }
        let key = Cluster.Key(field: mutant.field, kind: mutant.kind, pattern: pattern)
        if let index = clusters.firstIndex(where: { $0.key == key }) {
            clusters[index].count += 1
            if mutant.size < clusters[index].mutant.size {
                clusters[index].mutant = mutant
                clusters[index].judgements = judgements
            }
        } else if clusters.count < Self.clusterCap {
            clusters.append(Cluster(key: key, count: 1, mutant: mutant, judgements: judgements))
        } else {
            droppedClusters += 1
        }
    }

    /// The shards of one hunt (same profile, verifiers and seed, different shards of the same count) as one state:
    /// clusters by key with their sightings added and the smaller mutant kept, counts and times added.
    package static func merge(_ states: [HuntState]) throws -> HuntState {
        guard let first = states.first else { throw HuntError.otherConfiguration("nothing to merge") }
        let base = first.configuration
        for state in states {
            let other = state.configuration
            guard other.profile == base.profile, other.verifiers == base.verifiers, other.seed == base.seed, other.shards == base.shards,
                  state.mergedShards == nil else {
                throw HuntError.otherConfiguration("shards of one hunt share profile, verifiers, seed and shard count, and are not merged already")
            }
        }
        let shards = states.map(\.configuration.shard)
        guard Set(shards).count == shards.count else { throw HuntError.otherConfiguration("shard \(shards) given twice") }
        var merged = HuntState(configuration: Configuration(profile: base.profile, verifiers: base.verifiers, seed: base.seed,
                                                           shard: 0, shards: 1))
        merged.mergedShards = shards.sorted()
        for state in states {
            merged.mutantsTried += state.mutantsTried
            merged.agreements += state.agreements
            merged.inapplicable += state.inapplicable
            merged.droppedClusters += state.droppedClusters
            merged.elapsed = max(merged.elapsed, state.elapsed)
            for (index, seconds) in state.verifierSeconds.enumerated() where index < merged.verifierSeconds.count {
                merged.verifierSeconds[index] += seconds
            }
            merged.excludedBaselines.merge(state.excludedBaselines) { first, _ in first }
            merged.catalogueCatches.merge(state.catalogueCatches) { first, _ in first }
            for cluster in state.clusters {
                if let index = merged.clusters.firstIndex(where: { $0.key == cluster.key }) {
                    merged.clusters[index].count += cluster.count
                    if (cluster.mutant.size, cluster.mutant.index) < (merged.clusters[index].mutant.size, merged.clusters[index].mutant.index) {
                        merged.clusters[index].mutant = cluster.mutant
                        merged.clusters[index].judgements = cluster.judgements
                    }
                } else if merged.clusters.count < clusterCap {
                    merged.clusters.append(cluster)
                } else {
                    merged.droppedClusters += 1
                }
            }
        }
        merged.clusters.sort { $0.key < $1.key }
        return merged
    }

    package var json: Data {
        get throws {
            let encoder = JSONEncoder.harness
            return try encoder.encode(self) + Data("\n".utf8)
        }
    }

    /// Reads a saved state (at most `limit` bytes, checked before decoding).
    package static func load(_ data: Data, limit: Int = 256 << 20) throws -> HuntState {
        guard data.count <= limit else { throw HuntError.stateTooLarge(data.count) }
        let state = try JSONDecoder.harness.decode(HuntState.self, from: data)
        guard state.format == formatVersion else { throw HuntError.unknownFormat(state.format) }
        return state
    }
}

package enum HuntError: Error, Hashable, Sendable, CustomStringConvertible {
    case stateTooLarge(Int)
    case unknownFormat(String)
    case otherConfiguration(String)
    case noBaselines(String)
    /// The profile has none of the families a hunt mutates.
    case noFamily(profile: String)

    package var description: String {
        switch self {
        case .stateTooLarge(let size): "the saved hunt is \(size) bytes, more than a hunt writes"
        case .unknownFormat(let format): "the saved hunt has format \"\(format)\", not \(HuntState.formatVersion)"
        case .otherConfiguration(let what): "the directory holds a hunt of another configuration (\(what)); give another --out or the same options"
        case .noBaselines(let why): "no valid case is accepted by every verifier, so no mutant could prove anything: \(why)"
        case .noFamily(let profile):
            "profile \(profile) has none of the families a hunt mutates so far (\(HuntFamily.names.map(\.rawValue).joined(separator: ", ")))"
        }
    }
}
