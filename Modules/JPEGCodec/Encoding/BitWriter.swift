/// Packs Huffman codes into bytes with JPEG byte stuffing (a 0x00 after every 0xFF in entropy-coded data, T.81
/// F.1.2.3), into a growable buffer that the encoder drains to the sink after each strip.
///
/// Bits gather in a 64-bit register; a full register is written as eight bytes at once unless one of them is 0xFF,
/// which photos make rare, so the common path has no per-byte branch.
struct BitWriter: ~Copyable {
    private var register: UInt64 = 0
    /// Bits still free in `register` (1...64); the occupied bits are its low `64 - free` bits.
    private var free = 64
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written into `storage` and not yet drained.
    private(set) var count = 0

    init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 1024)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// Makes room for `extra` more bytes; called once per MCU with a bound on what it can produce.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity {
            (storage, capacity) = Self.grow(storage, count: count, capacity: capacity, needed: count + extra)
        }
    }

    /// A bigger buffer holding the `count` bytes of `storage` (which it frees). Static, so that the writer's address
    /// is never taken on the coding path and its register can live in a CPU register.
    private static func grow(
        _ storage: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int, needed: Int
    ) -> (UnsafeMutablePointer<UInt8>, Int) {
        let newCapacity = max(needed, capacity * 2)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: storage, count: count)
        storage.deallocate()
        return (bigger, newCapacity)
    }

    /// Appends the low `length` bits of `bits` (length 1...32, higher bits zero), most significant first.
    @inline(__always)
    mutating func put(_ bits: UInt64, length: Int) {
        if length < free {
            register = register &<< UInt64(length) | bits
            free &-= length
        } else {
            let spill = length &- free
            emitWord(register &<< UInt64(free) | bits &>> UInt64(spill))
            // Bits above the `spill` kept ones are stale, but every later read shifts them out of the word.
            register = bits
            free = 64 &- spill
        }
    }

    @inline(__always)
    private mutating func emitWord(_ word: UInt64) {
        // A byte is 0xFF exactly when the same byte of ~word is zero: the classic "has a zero byte" test.
        let inverted = ~word
        let hasFF = (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080
        if hasFF == 0 {
            UnsafeMutableRawPointer(storage + count).storeBytes(of: word.bigEndian, as: UInt64.self)
            count &+= 8
        } else {
            count = Self.stuff(word, into: storage, at: count)
        }
    }

    /// Writes the eight bytes of `word` at `count` with a 0x00 after each 0xFF; returns the new count. The rare path
    /// of `emitWord` (a few words in a hundred of a photo's entropy-coded data), kept out of line so that each
    /// inlined `put` carries only the common path. Static, like `grow`, so the writer's register stays in a CPU
    /// register.
    @inline(never)
    private static func stuff(_ word: UInt64, into storage: UnsafeMutablePointer<UInt8>, at count: Int) -> Int {
        var count = count
        for shift in stride(from: 56, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: word &>> UInt64(shift))
            storage[count] = byte
            count += 1
            if byte == 0xFF {
                storage[count] = 0
                count += 1
            }
        }
        return count
    }

    /// Pads the last partial byte with one-bits (T.81 F.1.2.3) and writes out every pending bit; used before a
    /// restart marker and at the end of the scan.
    mutating func flushBits() {
        var pending = 64 - free
        guard pending > 0 else { return }
        let padding = (8 - pending % 8) % 8
        var value = register &<< UInt64(padding) | ((1 &<< UInt64(padding)) &- 1)
        pending += padding
        value = value &<< UInt64(64 - pending)  // left-align; pending ≥ 8 here, so the shift is < 64
        for _ in 0..<(pending / 8) {
            let byte = UInt8(truncatingIfNeeded: value &>> 56)
            storage[count] = byte
            count += 1
            if byte == 0xFF {
                storage[count] = 0
                count += 1
            }
            value = value &<< 8
        }
        register = 0
        free = 64
    }

    /// Appends bytes verbatim (markers), without stuffing; the bit register must be empty.
    mutating func writeRaw(_ bytes: [UInt8]) {
        reserve(bytes.count)
        for byte in bytes {
            storage[count] = byte
            count += 1
        }
    }

    /// Hands the written bytes to `write` and empties the buffer (pending bits stay in the register).
    mutating func drain(to write: JPEGByteWriter) {
        guard count > 0 else { return }
        write(UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }
}
