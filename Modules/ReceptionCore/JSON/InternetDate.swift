import Foundation

/// RFC 3339 internet date-times as the service sends them (spec 1.5): `2026-09-25T10:00:00.000Z`,
/// `2026-09-24T10:00:00Z`, `2026-09-24T12:00:00+02:00`; fractional seconds of any length, `Z` or an offset.
///
/// Parsed by hand rather than with a date formatter: formatters are slow, locale-sensitive and differ between
/// Foundation implementations, and a date that does not parse must fail the response (`invalid_date`).
public enum InternetDate {
    /// The date in `text`, or `nil` when it is not an RFC 3339 date-time.
    @_optimize(size) public static func parse(_ text: some StringProtocol) -> Date? { parse(bytes: Array(text.utf8)) }

    /// The parse itself, compiled once: the public entry point is generic, and the app would otherwise keep its
    /// body twice, unspecialised and for `String` (Docs/Footprint.md, "Generic entry points kept thin").
    @inline(never) @_optimize(size) static func parse(bytes b: [UInt8]) -> Date? {
        // yyyy-mm-ddThh:mm:ss is 19 characters; then optional fraction; then Z or ±hh:mm.
        guard b.count >= 20 else { return nil }
        @_optimize(size) func digits(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for i in start..<(start + count) {
                let d = Int(b[i]) - 48
                guard d >= 0, d <= 9 else { return nil }
                value = value * 10 + d
            }
            return value
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
              let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
              b[16] == UInt8(ascii: ":"), let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23, minute <= 59,
              second <= 60
        else { return nil }

        var index = 19
        var fraction = 0.0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            // Digits beyond nanoseconds are read but cannot change a Double timestamp.
            let start = index
            var numerator = 0
            var denominator = 1
            while index < b.count, b[index] >= 48, b[index] <= 57 {
                if index - start < 9 {
                    numerator = numerator * 10 + Int(b[index] - 48)
                    denominator *= 10
                }
                index += 1
            }
            guard index > start else { return nil }
            fraction = Double(numerator) / Double(denominator)
        }
        guard index < b.count else { return nil }
        var offsetSeconds = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard b.count - index == 6, let oh = digits(index + 1, 2), b[index + 3] == UInt8(ascii: ":"),
                  let om = digits(index + 4, 2), oh <= 23, om <= 59
            else { return nil }
            offsetSeconds = (oh * 3600 + om * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == b.count else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `date` in UTC with millisecond precision, the form the emulator and the caches write
    /// (`2026-09-25T10:00:00.000Z`).
    @inline(never) @_optimize(size) public static func format(_ date: Date) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let millisecond = Int(((totalMilliseconds % 1000) + 1000) % 1000)
        let totalSeconds = (totalMilliseconds - Int64(millisecond)) / 1000
        var days = Int(totalSeconds / 86_400)
        var secondOfDay = Int(totalSeconds % 86_400)
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = civilFromDays(days)
        @inline(never) @_optimize(size) func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millisecond, 3))Z"
    }

    @inline(never) @_optimize(size)
    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    @inline(never) @_optimize(size) private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Days since 1970-01-01 in the proleptic Gregorian calendar (the era-based civil-date algorithm).
    @inline(never) @_optimize(size) private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    @inline(never) @_optimize(size) private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
