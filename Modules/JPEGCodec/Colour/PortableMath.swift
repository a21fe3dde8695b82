/// `log2`, `exp2` and `x^y` from additions, multiplications and divisions only, in a fixed order, so that the colour
/// tables built with them hold the same bytes on x86-64 and arm64. The platforms' `pow` (glibc, Darwin's libm) may
/// differ in the last bit and may fuse multiply-adds, and the codec imports no C library anyway. About 1e-15
/// relative error: far below what an 8-bit or 1/65,536 table entry can show.
enum PortableMath {
    private static let ln2 = 0.693_147_180_559_945_309_417_232_121_458

    /// log₂ x for a finite x > 0 (0 or less gives -1,100, which `exp2` maps to 0).
    @_optimize(size) static func log2(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x > 0 ? 1100 : -1100 }
        // x = m · 2^e with m in [1, 2), folded to [√½, √2) so the series below converges fast.
        var exponent = Double(Int(x.exponent))
        var m = x.significand
        if m > 1.414_213_562_373_095_048_8 {
            m = m / 2
            exponent += 1
        }
        // ln m = 2·atanh(s) = 2(s + s³/3 + s⁵/5 + …), s = (m − 1)/(m + 1), |s| ≤ 0.172.
        let s = (m - 1) / (m + 1), s2 = s * s
        var term = s, sum = 0.0
        var k = 1.0
        for _ in 0..<14 {
            sum = sum + term / k
            term = term * s2
            k += 2
        }
        return exponent + 2 * sum / ln2
    }

    /// 2^y; below 2^-1,074 it is 0.
    @_optimize(size) static func exp2(_ y: Double) -> Double {
        guard y > -1074 else { return 0 }
        guard y < 1024 else { return .infinity }
        let whole = y.rounded(.down)
        // e^(f·ln 2) for f in [0, 1) by its Taylor series (the argument is below 0.7: 22 terms are beyond precision).
        let t = (y - whole) * ln2
        var term = 1.0, sum = 1.0
        for n in 1..<23 {
            term = term * t / Double(n)
            sum = sum + term
        }
        // Scaling by a power of two is exact (and gradual below the normal range).
        return Double(sign: .plus, exponent: Int(whole), significand: sum)
    }

    /// x^y for x ≥ 0 (0^y is 0 for y > 0 and 1 for y = 0).
    @_optimize(size) static func power(_ x: Double, _ y: Double) -> Double {
        if y == 0 { return 1 }
        guard x > 0 else { return 0 }
        if x == 1 { return 1 }
        return exp2(y * log2(x))
    }
}
