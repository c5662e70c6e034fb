import AttestConformance
import AttestEvidence

/// One catalogued scenario of a family: its baseline (which steps exist before the mutation) and the mutation
/// that breaks `rule`, or none for a valid case. Every family lists these; only `Baseline`, `Scenario` and
/// `Forge` differ.
///
/// A negative definition's control is the valid case of the same family with the same baseline and no mutation:
/// each family derives it from the baseline (`makeCase(control:)`), and a definition whose baseline the family
/// cannot tell apart names it in `control` (the variant of a valid definition).
struct CaseDefinition<Baseline: Sendable, Scenario, Forge>: Sendable {
    let variant: String
    let rule: RuleID?
    let importance: Importance
    let description: String
    let baseline: Baseline
    /// The variant of this negative case's control, when the family's derivation from the baseline does not give it.
    let control: String?
    /// The specification leaves this case's verdict to the relying party: every step expects either verdict.
    let either: Bool
    /// Nothing can be read past what this case breaks: refused under every profile (`Step.unreadable`).
    let unreadable: Bool
    let mutate: @Sendable (inout Scenario, Forge) throws -> Void

    init(variant: String, rule: RuleID?, importance: Importance, description: String, baseline: Baseline,
         control: String? = nil, either: Bool = false, unreadable: Bool = false, mutate: @escaping @Sendable (inout Scenario, Forge) throws -> Void) {
        self.variant = variant
        self.rule = rule
        self.importance = importance
        self.description = description
        self.baseline = baseline
        self.control = control
        self.either = either
        self.unreadable = unreadable
        self.mutate = mutate
    }

    /// The stable id `<prefix>.<rule without "<prefix>.", or "valid">.<variant>`, known before anything is forged.
    func id(prefix: String) -> String {
        let ruleName = rule.map { $0.rawValue.hasPrefix(prefix + ".") ? String($0.rawValue.dropFirst(prefix.count + 1)) : $0.rawValue }
        return "\(prefix).\(ruleName ?? "valid").\(variant)"
    }

    /// The case, with `<prefix>.valid.<control>` as its control when it is negative (this definition's own
    /// `control` first, else the family's `derived` variant for its baseline).
    func makeCase(prefix: String, family: FamilyName, context: CaseContext, steps: [Step], control derived: String) -> Case {
        var marked = either ? steps.map(\.leavingVerdictToRelyingParty) : steps
        if unreadable { marked = marked.map { $0.breaks == nil ? $0 : $0.unreadableWithoutItsRule } }
        var testCase = Case(id: id(prefix: prefix), family: family, rule: rule, description: description, importance: importance,
                            context: context, steps: marked)
        if rule != nil { testCase.control = "\(prefix).valid.\(control ?? derived)" }
        return testCase
    }
}

extension CaseDefinition where Baseline == Void {
    /// A definition whose family has a single baseline.
    init(variant: String, rule: RuleID?, importance: Importance, description: String, control: String? = nil,
         mutate: @escaping @Sendable (inout Scenario, Forge) throws -> Void) {
        self.init(variant: variant, rule: rule, importance: importance, description: description, baseline: (), control: control,
                  mutate: mutate)
    }

    /// A definition that builds its whole scenario (families whose scenarios are request sequences).
    init(variant: String, rule: RuleID?, importance: Importance, description: String, control: String? = nil,
         build: @escaping @Sendable (Forge) throws -> Scenario) {
        self.init(variant: variant, rule: rule, importance: importance, description: description, baseline: (), control: control) { scenario, forge in
            scenario = try build(forge)
        }
    }
}

extension Array where Element == Step {
    /// The platform (`ios`, `android`) the steps' requests name, for families whose baselines are one per platform:
    /// `android` when any step says so, else `ios`.
    var platform: String {
        contains { $0.inputs[.platform] == [UInt8]("android".utf8) } ? "android" : "ios"
    }
}
