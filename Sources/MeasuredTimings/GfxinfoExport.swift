import ScrollSimulation

/// A simulated run written as a measurement: the `adb shell dumpsys gfxinfo <package> framestats`
/// text `GfxinfoImporter` reads, for checking that calibration recovers known scales and for
/// comparing a simulation with tools that read framestats.
package enum GfxinfoExport {
    /// The run's scrolling frames with Android 12 columns, times in ns from an arbitrary origin:
    /// `IntendedVsync` the frame's vsync, `HandleInputStart` to `SyncQueued` its main-thread work,
    /// `SyncStart` to `FrameCompleted` its render work, `FrameDeadline` the vsync it was due at
    /// (presented − hitch) and `FrameCompleted` that deadline plus its overrun. The frames are the
    /// ones `Calibration.frames(of:timing:interval:)` gives for completion timing.
    package static func framestats(_ result: RunResult, interval: Micros, package: String = "com.example.simulated")
        -> String
    {
        let origin: Int64 = 1_000_000_000_000
        func ns(_ us: Micros) -> String { String(origin + Int64(us) * 1_000) }
        var lines = [
            "** Graphics info for pid 4242 [\(package)] **", "", "---PROFILEDATA---",
            "Flags,IntendedVsync,Vsync,HandleInputStart,FrameDeadline,FrameInterval,SyncQueued,SyncStart,FrameCompleted,",
        ]
        for f in result.frames where f.scrolling {
            let deadline = f.presented - f.hitch
            let completed = deadline + f.overrun
            let fields = [
                "0", ns(f.begin), ns(f.begin), ns(f.begin), ns(deadline), String(Int64(interval) * 1_000),
                ns(f.begin + f.mainWork), ns(completed - f.renderWork), ns(completed),
            ]
            lines.append(fields.joined(separator: ",") + ",")
        }
        lines.append("---PROFILEDATA---")
        return lines.joined(separator: "\n") + "\n"
    }
}
