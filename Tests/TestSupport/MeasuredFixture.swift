/// A study with a measured file, for the tests of its loading (StudyTests) and of its pages (StudySiteTests).
package enum MeasuredFixture {
    /// A framestats file: three frames at 60 Hz, the third 5 ms past its deadline.
    package static let framestats = """
        Example recording written for a test; not device data.
        ---PROFILEDATA---
        Flags,IntendedVsync,Vsync,HandleInputStart,FrameDeadline,FrameInterval,SyncQueued,SyncStart,FrameCompleted,
        0,1000000000000,1000000000000,1000000000000,1000016666667,16666667,1000004000000,1000004100000,1000008000000,
        0,1000016666667,1000016666667,1000016666667,1000033333334,16666667,1000020666667,1000020766667,1000024666667,
        0,1000033333334,1000033333334,1000033333334,1000050000001,16666667,1000045000000,1000045100000,1000055000001,
        ---PROFILEDATA---

        """

    package static func study(_ measured: String) -> String {
        """
        {
          "title": "S",
          "question": "Q?",
          "dataset": "users-1000",
          "gestures": ["fling"],
          "latenciesMs": [100],
          "strategies": ["capitalone-cancel", "capitalone-prefetch"],
          "measured": [
            \(measured)
          ]
        }
        """
    }

    package static let entry =
        #"{"file": "measured/pixel.txt", "label": "Feed 4.2 <b>beta</b>, Pixel 7", "beside": "capitalone-cancel"}"#
}
