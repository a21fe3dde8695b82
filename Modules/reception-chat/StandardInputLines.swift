import Foundation

/// Lines of standard input, read on a background thread (a blocking read must not hold the main actor) and
/// delivered in order through an `AsyncStream` the main actor iterates. The stream ends at end of input.
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        thread.name = "reception-chat stdin"
        thread.start()
        return stream
    }
}
