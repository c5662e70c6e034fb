/// UTCTime and GeneralizedTime in their DER forms (X.690 §11.7, §11.8), as RFC 5280 §4.1.2.5 uses them:
/// `YYMMDDHHMMSSZ` and `YYYYMMDDHHMMSSZ`, seconds always present, UTC only, no fractional seconds.
///
/// Times are seconds since 1970-01-01T00:00:00Z, so this module needs no calendar library.
public enum ASN1Time {
    /// RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050.
    public static func element(_ secondsSinceEpoch: Int64) -> DERElement {
        let (year, _, _, _, _, _) = civil(secondsSinceEpoch)
        return year < 2050 ? utcTime(secondsSinceEpoch) : generalizedTime(secondsSinceEpoch)
    }

    public static func utcTime(_ secondsSinceEpoch: Int64) -> DERElement {
        let (y, mo, d, h, mi, s) = civil(secondsSinceEpoch)
        precondition((1950...2049).contains(y), "UTCTime covers 1950 through 2049")
        return .primitive(.utcTime, Array((two(y % 100) + two(mo) + two(d) + two(h) + two(mi) + two(s) + "Z").utf8))
    }

    public static func generalizedTime(_ secondsSinceEpoch: Int64) -> DERElement {
        let (y, mo, d, h, mi, s) = civil(secondsSinceEpoch)
        precondition((0...9999).contains(y), "GeneralizedTime covers years 0 through 9999")
        let year = String(repeating: "0", count: 4 - String(y).count) + String(y)
        return .primitive(.generalizedTime, Array((year + two(mo) + two(d) + two(h) + two(mi) + two(s) + "Z").utf8))
    }

    private static func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Reads either time type in its DER form.
    public static func value(of element: DERElement, field: String? = nil) throws -> Int64 {
        let error = DERError(.invalidTime, at: element.location, field: field)
        let content: [UInt8]
        let yearDigits: Int
        switch element.identifier {
        case .utcTime:
            content = try element.primitiveContent(.utcTime, field: field)
            yearDigits = 2
        case .generalizedTime:
            content = try element.primitiveContent(.generalizedTime, field: field)
            yearDigits = 4
        default:
            throw DERError(.unexpectedTag(expected: .utcTime, found: element.identifier), at: element.location,
                           field: field)
        }
        guard content.count == yearDigits + 11, content.last == UInt8(ascii: "Z") else { throw error }
        let digits = content.dropLast().map { Int64($0) - 48 }
        guard digits.allSatisfy({ (0...9).contains($0) }) else { throw error }
        func number(_ from: Int, _ count: Int) -> Int64 {
            digits[from..<(from + count)].reduce(0) { $0 * 10 + $1 }
        }
        var year = number(0, yearDigits)
        if yearDigits == 2 { year += year >= 50 ? 1900 : 2000 }
        let (month, day) = (number(yearDigits, 2), number(yearDigits + 2, 2))
        let (hour, minute, second) = (number(yearDigits + 4, 2), number(yearDigits + 6, 2), number(yearDigits + 8, 2))
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month),
              hour < 24, minute < 60, second < 60 else { throw error }
        return ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60 + second
    }

    static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][Int(month - 1)]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// (year, month, day, hour, minute, second) of a time (H. Hinnant's `civil_from_days`).
    static func civil(_ seconds: Int64) -> (Int64, Int64, Int64, Int64, Int64, Int64) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
    }
}
