/// RFC 3339 timestamps in UTC with milliseconds (spec 1.5), computed from seconds since 1970 without a formatter
/// object (civil-from-days, proleptic Gregorian calendar).
enum InternetDate {
    /// RFC 3339 has four-digit years: times are clamped to 0001-01-01…9999-12-31 (and a NaN read as 1970), so the
    /// integer conversion cannot trap on any stored value.
    static let representable: ClosedRange<Double> = -62_135_596_800...253_402_300_799.999

    /// `2026-09-25T10:00:00.000Z` for `seconds` since 1970.
    static func string(_ seconds: Double) -> String {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, representable.lowerBound), representable.upperBound)
        let totalMilliseconds = Int64((clamped * 1000).rounded(.down))
        let days = floorDivide(totalMilliseconds, 86_400_000)
        let millisecondOfDay = totalMilliseconds - days * 86_400_000
        let (year, month, day) = civil(daysSince1970: days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))."
            + "\(pad(millisecond, 3))Z"
    }

    /// The date as a JSON string, or JSON `null` for no date.
    static func json(_ seconds: Double?) -> JSONValue { seconds.map { .string(string($0)) } ?? .null }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }

    private static func civil(daysSince1970: Int64) -> (Int64, Int64, Int64) {
        let z = daysSince1970 + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
