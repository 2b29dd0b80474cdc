import Mustache
import ScrollSimulation

/// The index: one table of every study's answer at each latency, then the tour. It sees each
/// study with its own runs (`StudyRuns`), the site's tagline, the run count and the tour.
struct IndexPage: PageGenerator {
    let tagline: String
    /// Every study, in the content's order.
    let studies: [StudyRuns]
    let runCount: Int
    /// The guided tour, or nil without one.
    let tour: Tour?
    let renderer: PageRenderer

    static let path = "index.html"

    func jobs() -> [PageJob] {
        [renderer.job(path: Self.path, title: "Summary", section: "index", template: "index") { () throws(SiteError) in try data() }]
    }

    /// A sweep study shows its lowest and highest latency (its page has the rest).
    static func shown(_ study: Study) -> [Double] {
        study.kind == .sweep ? [study.latenciesMs.first!, study.latenciesMs.last!] : study.latenciesMs
    }

    func data() throws(SiteError) -> [String: MustacheValue] {
        let columns = Set(studies.map(\.study).flatMap(Self.shown)).sorted()
        var rows: [MustacheValue] = []
        for subject in studies {
            let study = subject.study
            let answers = try subject.answers(for: Self.path)
            let cells: [MustacheValue] = columns.map { latency in
                guard Self.shown(study).contains(latency), let text = answers.short(at: latency) else { return .object(["present": false, "text": .string("")]) }
                return .object(["present": true, "text": .string(text), "none": .bool(text.hasPrefix("none")),
                                "latency": .string(Format.latency(latency))])
            }
            rows.append(.object(["id": .string(study.id), "title": .string(study.title), "question": .string(study.question),
                                 "href": .string("studies/\(study.id).html"), "cells": .array(cells)]))
        }
        let tour = try tour?.data(for: Self.path)
        return ["tagline": .string(tagline), "studies": .array(rows), "runCount": .int(runCount),
                "latencies": .array(columns.map { .string(Format.latency($0)) }),
                "hasTour": .bool(tour != nil), "tour": tour ?? .array([])]
    }

    /// The end-of-generation summary: studies and runs, then one line per study with its answer at
    /// each latency (a study with several devices that disagree names each device).
    func summaryLines() throws(SiteError) -> [String] {
        var lines = ["\(studies.count) \(studies.count == 1 ? "study" : "studies"), \(runCount) \(runCount == 1 ? "run" : "runs"). Answers (rule: verdicts.html#answers):"]
        for subject in studies {
            let answers = try subject.answers(for: Self.path)
            let parts = subject.study.latenciesMs.compactMap { latency in answers.short(at: latency).map { "\(Format.latency(latency)): \($0)" } }
            lines.append("  \(subject.study.id) — " + parts.joined(separator: " · "))
        }
        return lines
    }
}
