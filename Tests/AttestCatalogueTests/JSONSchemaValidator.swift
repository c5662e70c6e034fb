import Foundation

/// The subset of JSON Schema 2020-12 that vectors/schema.json and apis/api-map.schema.json use: type (one name),
/// const, enum, required, properties, additionalProperties, propertyNames (a pattern), items, minItems, minimum,
/// pattern, anyOf and local `$ref`s. Returns every violation.
struct JSONSchemaValidator {
    let root: [String: Any]

    func validate(_ value: Any) -> [String] { validate(value, against: root, at: "$") }

    private func validate(_ value: Any, against schema: [String: Any], at path: String) -> [String] {
        if let reference = schema["$ref"] as? String {
            let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
            guard let target = (root["$defs"] as? [String: Any])?[name] as? [String: Any] else { return ["\(path): unknown $ref \(reference)"] }
            return validate(value, against: target, at: path)
        }
        var errors: [String] = []
        if let alternatives = schema["anyOf"] as? [[String: Any]] {
            let outcomes = alternatives.map { validate(value, against: $0, at: path) }
            if !outcomes.contains(where: \.isEmpty) {
                errors.append("\(path): matches none of \(alternatives.count) alternatives (first: \(outcomes.first?.first ?? ""))")
            }
        }
        if let constant = schema["const"], !equal(value, constant) { errors.append("\(path): not \(constant)") }
        if let options = schema["enum"] as? [Any], !options.contains(where: { equal(value, $0) }) {
            errors.append("\(path): \(value) not in \(options)")
        }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { return errors + ["\(path): not an object"] }
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { errors.append("\(path): missing \(key)") }
            for (present, needed) in schema["dependentRequired"] as? [String: [String]] ?? [:] where object[present] != nil {
                for key in needed where object[key] == nil { errors.append("\(path): \(present) without \(key)") }
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            if let names = (schema["propertyNames"] as? [String: Any])?["pattern"] as? String {
                for key in object.keys where key.range(of: names, options: .regularExpression) == nil {
                    errors.append("\(path): member name \(key) does not match \(names)")
                }
            }
            for (key, member) in object {
                if let propertySchema = properties[key] as? [String: Any] {
                    errors += validate(member, against: propertySchema, at: "\(path).\(key)")
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    errors += validate(member, against: additional, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    errors.append("\(path): unexpected \(key)")
                }
            }
        case "array":
            guard let array = value as? [Any] else { return errors + ["\(path): not an array"] }
            if let minimum = schema["minItems"] as? Int, array.count < minimum { errors.append("\(path): fewer than \(minimum) items") }
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() { errors += validate(item, against: items, at: "\(path)[\(index)]") }
            }
        case "number":
            guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return errors + ["\(path): not a number"] }
        case "null":
            guard value is NSNull else { return errors + ["\(path): not null"] }
        case "boolean":
            guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else { return errors + ["\(path): not a boolean"] }
        case "string":
            guard let string = value as? String else { return errors + ["\(path): not a string"] }
            if let pattern = schema["pattern"] as? String, string.range(of: pattern, options: .regularExpression) == nil {
                errors.append("\(path): \"\(string.prefix(40))\" does not match \(pattern)")
            }
        case "integer":
            guard let number = value as? NSNumber, number.doubleValue == number.doubleValue.rounded() else {
                return errors + ["\(path): not an integer"]
            }
            if let minimum = schema["minimum"] as? Int, number.intValue < minimum { errors.append("\(path): below \(minimum)") }
        case nil:
            break
        case let other?:
            errors.append("\(path): the validator does not know type \(other)")
        }
        return errors
    }

    private func equal(_ a: Any, _ b: Any) -> Bool {
        (a as? NSObject)?.isEqual(b) ?? false
    }
}
