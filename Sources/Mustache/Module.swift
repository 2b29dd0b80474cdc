/// Mustache templates: parsing and rendering (see the module README in the docs).
public enum MustacheModule {}
