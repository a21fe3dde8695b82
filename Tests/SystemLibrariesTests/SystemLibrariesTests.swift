import CSQLite
import CZlib
import Testing

/// The C shims work: SQLite opens, binds with a transient destructor rebuilt in Swift, and zlib's macro-wrapped
/// initialisers round-trip data.
@Suite("SystemLibrariesTests")
struct SystemLibrariesTests {
    /// SQLITE_TRANSIENT rebuilt in Swift, the way the SQLite store binds text.
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    @Test func swiftTransientMatchesTheCMacro() {
        #expect(unsafeBitCast(transient, to: Int.self) == unsafeBitCast(reception_sqlite_transient(), to: Int.self))
    }

    @Test func sqliteBindsTransientTextThatOutlivesTheSwiftBuffer() throws {
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        #expect(sqlite3_exec(db, "CREATE TABLE t(x TEXT)", nil, nil, nil) == SQLITE_OK)
        var insert: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?)", -1, &insert, nil) == SQLITE_OK)
        do {
            // The Swift string's bytes are gone after this scope; SQLITE_TRANSIENT made SQLite copy them.
            let text = String(repeating: "é", count: 100)
            #expect(sqlite3_bind_text(insert, 1, text, -1, transient) == SQLITE_OK)
        }
        #expect(sqlite3_step(insert) == SQLITE_DONE)
        sqlite3_finalize(insert)
        var select: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT x FROM t", -1, &select, nil) == SQLITE_OK)
        defer { sqlite3_finalize(select) }
        #expect(sqlite3_step(select) == SQLITE_ROW)
        let pointer = try #require(sqlite3_column_text(select, 0))
        #expect(String(cString: pointer) == String(repeating: "é", count: 100))
    }

    @Test func zlibRoundTripsThroughTheWrappedInitialisers() {
        let input = Array(String(repeating: "ReceptionKit ", count: 500).utf8)
        var compressed = [UInt8](repeating: 0, count: 1 << 16)
        var stream = z_stream()
        #expect(reception_deflate_init(&stream, Z_BEST_COMPRESSION) == Z_OK)
        var produced = 0
        input.withUnsafeBufferPointer { source in
            compressed.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                #expect(deflate(&stream, Z_FINISH) == Z_STREAM_END)
                produced = target.count - Int(stream.avail_out)
            }
        }
        deflateEnd(&stream)
        #expect(produced > 0 && produced < input.count / 10)

        var output = [UInt8](repeating: 0, count: input.count)
        var inflater = z_stream()
        #expect(reception_inflate_init(&inflater) == Z_OK)
        compressed.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                inflater.next_in = source.baseAddress
                inflater.avail_in = uInt(produced)
                inflater.next_out = target.baseAddress
                inflater.avail_out = uInt(target.count)
                #expect(inflate(&inflater, Z_FINISH) == Z_STREAM_END)
            }
        }
        inflateEnd(&inflater)
        #expect(output == input)
    }
}
