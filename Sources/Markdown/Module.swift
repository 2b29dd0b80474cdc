/// Markdown to HTML.
public enum MarkdownModule {}
