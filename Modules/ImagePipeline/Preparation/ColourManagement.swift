import JPEGCodec
import ReceptionCore

/// Preparation's colour management (issue 51): which conversion to sRGB a photo's embedded ICC profile asks for
/// (`SRGBConversion`, the codec's, so that arm64 and x86-64 convert alike), and the one log line for a profile
/// that cannot be read — the codec cannot log, so it answers `.unreadable` and this type says so, once per
/// preparer, so that a library of such photos does not flood the host's log.
struct ColourManagement: Sendable {
    private let logger: ReceptionLogger
    private let reportedUnreadable = Locked(false)

    @inline(never) @_optimize(size) init(logger: ReceptionLogger) {
        self.logger = logger
    }

    /// The conversion for pixels of `format` whose file carried `profile` (nil: none, sRGB).
    @inline(never) @_optimize(size) func conversion(for profile: [UInt8]?, format: BitmapFormat) -> SRGBConversion {
        let conversion = SRGBConversion(profile: profile, format: format)
        if case .unreadable = conversion, reportedUnreadable.withLock({ reported in
            defer { reported = true }
            return !reported
        }) {
            logger.write(.info, 
                "a photo's embedded colour profile (\(profile?.count ?? 0) bytes) is not one the pipeline converts "
                    + "(a matrix/TRC RGB or grey ICC profile); its colours were taken as sRGB (logged once)")
        }
        return conversion
    }
}
