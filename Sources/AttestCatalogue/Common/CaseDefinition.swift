import AttestConformance

/// One catalogued scenario of a family: its baseline (which steps exist before the mutation) and the mutation
/// that breaks `rule`, or none for a valid case. Every family lists these; only `Baseline`, `Scenario` and
/// `Forge` differ.
struct CaseDefinition<Baseline: Sendable, Scenario, Forge>: Sendable {
    let variant: String
    let rule: RuleID?
    let importance: Importance
    let description: String
    let baseline: Baseline
    let mutate: @Sendable (inout Scenario, Forge) throws -> Void

    init(variant: String, rule: RuleID?, importance: Importance, description: String, baseline: Baseline,
         mutate: @escaping @Sendable (inout Scenario, Forge) throws -> Void) {
        self.variant = variant
        self.rule = rule
        self.importance = importance
        self.description = description
        self.baseline = baseline
        self.mutate = mutate
    }

    /// The stable id `<prefix>.<rule without "<prefix>.", or "valid">.<variant>`, known before anything is forged.
    func id(prefix: String) -> String {
        let ruleName = rule.map { $0.rawValue.hasPrefix(prefix + ".") ? String($0.rawValue.dropFirst(prefix.count + 1)) : $0.rawValue }
        return "\(prefix).\(ruleName ?? "valid").\(variant)"
    }

    func makeCase(prefix: String, family: FamilyName, context: CaseContext, steps: [Step]) -> Case {
        Case(id: id(prefix: prefix), family: family, rule: rule, description: description, importance: importance,
             context: context, steps: steps)
    }
}

extension CaseDefinition where Baseline == Void {
    /// A definition whose family has a single baseline.
    init(variant: String, rule: RuleID?, importance: Importance, description: String,
         mutate: @escaping @Sendable (inout Scenario, Forge) throws -> Void) {
        self.init(variant: variant, rule: rule, importance: importance, description: description, baseline: (), mutate: mutate)
    }

    /// A definition that builds its whole scenario (families whose scenarios are request sequences).
    init(variant: String, rule: RuleID?, importance: Importance, description: String,
         build: @escaping @Sendable (Forge) throws -> Scenario) {
        self.init(variant: variant, rule: rule, importance: importance, description: description, baseline: ()) { scenario, forge in
            scenario = try build(forge)
        }
    }
}
