import Foundation

/// The JSON coders every ReceptionKit module uses for wire bodies and caches, so dates and key order are the same
/// everywhere.
public enum ReceptionJSON {
    /// A decoder that reads RFC 3339 dates with or without fractional seconds (spec 1.5). An unparseable date
    /// throws a `DecodingError` whose description names `invalid_date`; the transport maps it to `invalid_response`.
    @inline(never) @_optimize(size) public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = InternetDate.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\(ReceptionError.Code.invalidDate): not an RFC 3339 date-time")
            }
            return date
        }
        return decoder
    }

    /// An encoder that writes dates as UTC with milliseconds and keys in sorted order (stable bytes for tests and
    /// caches).
    @inline(never) @_optimize(size) public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InternetDate.format(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    // Shared coders for the hot paths: they are never reconfigured after creation, and JSONDecoder/JSONEncoder are
    // Sendable, so one instance serves every thread.
    private static let sharedDecoder = makeDecoder()
    private static let sharedEncoder = makeEncoder()

    /// Decodes `T` from `data`, mapping every failure to `invalid_response` with `status`.
    @inline(never) @_optimize(size)
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, status: Int = 0) throws(ReceptionError) -> T {
        do {
            return try sharedDecoder.decode(type, from: data)
        } catch {
            throw ReceptionError.invalidResponse(status: status)
        }
    }

    /// Encodes `value`, mapping a failure to `failureCode` (`invalid_input` for request bodies).
    @inline(never) @_optimize(size) public static func encode<T: Encodable>(
        _ value: T, failureCode: ReceptionError.Code = .invalidInput
    ) throws(ReceptionError) -> Data {
        do {
            return try sharedEncoder.encode(value)
        } catch {
            throw ReceptionError(code: failureCode)
        }
    }
}
