import Foundation
import ReceptionCore
import Testing

@Suite("InternetDateTests")
struct InternetDateTests {
    // 2026-09-25T10:00:00Z
    static let reference = 1_790_330_400.0

    // Spec 1.5: with or without fractional seconds, with Z or an explicit offset.
    @Test(arguments: [
        ("2026-09-25T10:00:00Z", reference),
        ("2026-09-25T10:00:00.000Z", reference),
        ("2026-09-25T10:00:00.5Z", reference + 0.5),
        ("2026-09-25T10:00:00.123456Z", reference + 0.123456),
        ("2026-09-25T12:00:00+02:00", reference),
        ("2026-09-25T05:30:00-04:30", reference),
        ("2026-09-25t10:00:00z", reference),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("2000-03-01T00:00:00Z", 951_868_800),
    ])
    func parsesRFC3339(text: String, seconds: Double) throws {
        let date = try #require(InternetDate.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(arguments: [
        "", "2026-09-25", "2026-09-25T10:00:00", "2026-09-25 10:00:00Z", "2026-13-01T00:00:00Z",
        "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-09-25T24:00:00Z", "2026-09-25T10:60:00Z",
        "2026-09-25T10:00:00.Z", "2026-09-25T10:00:00+0200", "2026-09-25T10:00:00+02", "2026-09-25T10:00:00Zjunk",
        "26-09-25T10:00:00Z", "2026-09-25T10:00:00ZZ", "２０２６-09-25T10:00:00Z", "1790330400",
    ])
    func rejectsWhatIsNotRFC3339(text: String) {
        #expect(InternetDate.parse(text) == nil)
    }

    @Test func formatsUTCWithMilliseconds() {
        #expect(InternetDate.format(Date(timeIntervalSince1970: Self.reference)) == "2026-09-25T10:00:00.000Z")
        #expect(InternetDate.format(Date(timeIntervalSince1970: Self.reference + 0.25)) == "2026-09-25T10:00:00.250Z")
        #expect(InternetDate.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }

    @Test func formatAndParseRoundTripAtMillisecondPrecision() throws {
        for offset in stride(from: -100_000_000.0, through: 4_000_000_000.0, by: 37_777_777.123) {
            let date = Date(timeIntervalSince1970: (offset * 1000).rounded() / 1000)
            let parsed = try #require(InternetDate.parse(InternetDate.format(date)))
            #expect(abs(parsed.timeIntervalSince(date)) < 0.000_5, "\(InternetDate.format(date))")
        }
    }
}
