/// Sorts `values` by `areInIncreasingOrder`, keeping equal values in the order they had: a bottom-up merge sort,
/// O(n log n) comparisons and one buffer of `values.count`.
///
/// The SDK's one sort. Its callers sort positions (indices into the list they order) and compare what the positions
/// point at. The standard library's `sort(by:)` and `sorted(by:)` are compiled again for every closure they are
/// called with, some 3 to 5 kB each on iOS; this function is compiled once (Docs/Footprint.md, "Size on iOS"): the
/// comparison reaches the merge as an opaque escaping closure, which the optimiser does not copy the merge for.
@inline(never)
@_optimize(size) package func stableSort(_ values: inout [Int], by areInIncreasingOrder: (Int, Int) -> Bool) {
    withoutActuallyEscaping(areInIncreasingOrder) { mergeSort(&values, by: $0) }
}

@inline(never)
@_optimize(size) private func mergeSort(_ values: inout [Int], by areInIncreasingOrder: @escaping (Int, Int) -> Bool) {
    let count = values.count
    guard count > 1 else { return }
    var buffer = values
    var width = 1
    while width < count {
        var start = 0
        while start < count {
            let middle = min(start + width, count), end = min(start + 2 * width, count)
            var left = start, right = middle, out = start
            while left < middle, right < end {
                // Only a strictly smaller right value goes first, so equal values keep their order.
                if areInIncreasingOrder(values[right], values[left]) {
                    buffer[out] = values[right]
                    right += 1
                } else {
                    buffer[out] = values[left]
                    left += 1
                }
                out += 1
            }
            while left < middle {
                buffer[out] = values[left]
                left += 1
                out += 1
            }
            while right < end {
                buffer[out] = values[right]
                right += 1
                out += 1
            }
            start = end
        }
        swap(&values, &buffer)
        width *= 2
    }
}

/// The positions of `count` items (`0..<count`), ordered by `areInIncreasingOrder` over positions, ties in position
/// order (`stableSort`).
@inline(never)
@_optimize(size) package func stableOrder(count: Int, by areInIncreasingOrder: (Int, Int) -> Bool) -> [Int] {
    var order = Array(0..<max(count, 0))
    stableSort(&order, by: areInIncreasingOrder)
    return order
}
