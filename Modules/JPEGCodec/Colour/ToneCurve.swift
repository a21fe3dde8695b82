/// One channel's tone reproduction curve from an ICC profile (`rTRC`, `gTRC`, `bTRC`, `kTRC`): how a stored value
/// in 0…1 maps to linear light in 0…1 (ICC.1:2022 10.6 `curveType`, 10.18 `parametricCurveType`).
package enum ToneCurve {
    /// `curv` with no entries: the value is already linear.
    case identity
    /// `curv` with one entry: y = x^γ (γ stored as u8Fixed8).
    case gamma(Double)
    /// `curv` with two or more entries, equally spaced over 0…1, interpolated linearly (values over 65,535).
    case table([UInt16])
    /// `para`: the function type (0–4) and its parameters g, a, b, c, d, e, f (the ones it does not use are 0).
    case parametric(type: Int, parameters: [Double])

    /// How many parameters each `para` function type stores (ICC.1 table 68).
    static let parameterCounts = [1, 3, 4, 5, 7]

    /// Linear light for a stored value x in 0…1, clipped to 0…1.
    @_optimize(size) func linear(_ x: Double) -> Double {
        let y: Double
        switch self {
        case .identity:
            y = x
        case .gamma(let gamma):
            y = PortableMath.power(x, gamma)
        case .table(let entries):
            let position = x * Double(entries.count - 1)
            let index = min(Int(position), entries.count - 2)
            let fraction = position - Double(index)
            let low = Double(entries[index]), high = Double(entries[index + 1])
            y = (low + (high - low) * fraction) / 65535
        case .parametric(let type, let p):
            let g = p[0], a = p[1], b = p[2], c = p[3], d = p[4], e = p[5], f = p[6]
            switch type {
            case 0: y = PortableMath.power(x, g)
            case 1: y = a != 0 && x >= -b / a ? PortableMath.power(a * x + b, g) : 0
            case 2: y = a != 0 && x >= -b / a ? PortableMath.power(a * x + b, g) + c : c
            case 3: y = x >= d ? PortableMath.power(a * x + b, g) : c * x
            default: y = x >= d ? PortableMath.power(a * x + b, g) + e : c * x + f
            }
        }
        guard y == y else { return 0 }  // NaN from a hostile parameter set
        return min(max(y, 0), 1)
    }
}
