/// One fixed window of a rate limit.
struct RateWindow {
    var start: Double
    var count: Int
}

/// Per-scope request budgets (spec 6.3.1 scopes, 5.2 `Retry-After`): a request checks every gate scope of its
/// route and is refused with 429 `rate_limited` naming the exhausted scope; only admitted requests are counted.
extension EmulatorState {
    /// Known cooldown scopes (spec 6.3.1).
    static let scopes: Set<String> = ["messages", "uploads", "requests", "session", "stream"]

    /// Admits a request of `subject` (a device ID, or `app` before registration) against `scopes`, or throws 429.
    func admit(scopes: [String], subject: String) throws(APIError) {
        let now = self.now
        for scope in scopes {
            // A scope without a window yet has used nothing; a limit of 0 refuses even the first request.
            guard let limit = settings.rateLimits[scope] else { continue }
            let window = activeWindow(scope, subject, limit, now) ?? RateWindow(start: now, count: 0)
            guard window.count >= limit.limit else { continue }
            let retryAfter = Self.wholeSeconds(window.start + Double(limit.windowSeconds) - now)
            throw APIError(
                429, "rate_limited", "Too many requests; wait before trying again.", retryScope: scope,
                retryAfter: retryAfter)
        }
        for scope in scopes {
            guard let limit = settings.rateLimits[scope] else { continue }
            var window = activeWindow(scope, subject, limit, now) ?? RateWindow(start: now, count: 0)
            window.count += 1
            rateWindows["\(scope)|\(subject)"] = window
        }
    }

    /// Seconds still to wait in `scope` for `subject` (0 when requests are admitted): the `limits` answer of
    /// `GET conversation?limits=1` (spec 6.3.6).
    func secondsToWait(scope: String, subject: String) -> Int {
        let now = self.now
        guard let limit = settings.rateLimits[scope] else { return 0 }
        let window = activeWindow(scope, subject, limit, now) ?? RateWindow(start: now, count: 0)
        guard window.count >= limit.limit else { return 0 }
        return Self.wholeSeconds(window.start + Double(limit.windowSeconds) - now)
    }

    /// A wait as whole seconds in 1…86400 (spec 5.2), rounded up; clamped before the conversion, so a clock that
    /// jumped (or a NaN) cannot trap it.
    static func wholeSeconds(_ wait: Double) -> Int {
        guard wait.isFinite else { return 86_400 }
        return Int(min(86_400, max(1, wait.rounded(.up))))
    }

    private func activeWindow(_ scope: String, _ subject: String, _ limit: RateLimit, _ now: Double) -> RateWindow? {
        guard let window = rateWindows["\(scope)|\(subject)"], now < window.start + Double(limit.windowSeconds) else {
            return nil
        }
        return window
    }
}
