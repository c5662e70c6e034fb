import AttestEvidence

/// fuzz-keydescription: whatever the KeyDescription parser accepts, strictly or with tags out of order, re-encodes
/// to exactly the input (fields, SET members and unknown tags keep their order) and parses back to the same value.
enum KeyDescriptionOracle {
    static func check(_ input: [UInt8]) -> String? {
        var unordered = KeyDescription.Options()
        unordered.allowUnorderedTags = true
        for options in [KeyDescription.Options.default, unordered] {
            guard let description = try? KeyDescription(der: input, options: options) else { continue }
            if description.der != input { return "re-encoding differs from the input" }
            guard let again = try? KeyDescription(der: description.der, options: options), again == description else {
                return "re-encoding does not parse back to the same KeyDescription"
            }
        }
        return nil
    }
}
