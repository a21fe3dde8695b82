import Digest
import Foundation

/// `--push-token` takes the APNs device token as hex, as hosts usually log it.
extension Data {
    /// Bytes from hex text (two digits a byte); `nil` for empty text or anything else.
    init?(hexString: String) {
        guard !hexString.isEmpty, let bytes = Hex.decode(hexString) else { return nil }
        self.init(bytes)
    }
}
