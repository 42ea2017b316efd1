package io.changeflow.adapter.persistence;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The expand-only rule of the migrations (docs/operations.md "Upgrading", docs/persistence.md "Migrations: expand,
 * then contract"), read from the scripts' text in version order: a release's migrations may add, never remove or
 * narrow what the previous release reads, since the previous release runs on the new schema during a rolling
 * upgrade and after a rollback. The columns of every table are followed from the {@code CREATE TABLE} and
 * {@code ALTER TABLE} statements of the earlier scripts, so a {@code MODIFY} is judged against what the column was.
 *
 * <p>Refused, unless the script carries a contract marker {@code -- contract: table[.column] unread since X.Y.Z}
 * naming what it removes and a release older than the one being built: {@code DROP TABLE}, {@code RENAME TABLE},
 * {@code ALTER TABLE ... RENAME [TO]}, {@code DROP [COLUMN]}, {@code RENAME COLUMN}, {@code CHANGE} to another
 * name, a {@code MODIFY}/{@code CHANGE} that narrows (shorter, smaller, another type, {@code NULL} to
 * {@code NOT NULL}, a {@code NOT NULL} column losing its default, signedness), {@code ALTER COLUMN ... DROP DEFAULT}
 * of a {@code NOT NULL} column. Never allowed, marker or not: adding a {@code NOT NULL} column without a default to
 * an existing table (the previous release's inserts leave it out). Indexes may be added and dropped.
 */
final class ExpandOnlyMigrations {

    /** One migration script: its file name ({@code V13__x.sql}) and text. */
    record Script(String name, String text) {}

    /** A change the rule refuses, with the script and the statement it is in. */
    record Refusal(String script, String statement, String reason) {
        @Override
        public String toString() {
            return script + ": " + reason + " [" + statement + "]";
        }
    }

    private static final Pattern CONTRACT = Pattern.compile(
            "--\\s*contract:\\s*([A-Za-z0-9_$.`]+)\\s+unread\\s+since\\s+(\\d+(?:\\.\\d+)*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern RELEASE = Pattern.compile("\\d+(?:\\.\\d+)*");
    private static final List<String> INTEGERS = List.of("TINYINT", "SMALLINT", "MEDIUMINT", "INT", "BIGINT");
    private static final List<String> TEXTS = List.of("TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT");
    private static final List<String> BLOBS = List.of("TINYBLOB", "BLOB", "MEDIUMBLOB", "LONGBLOB");
    /** Characters of utf8mb4 that fit each text type (bytes / 4). */
    private static final long[] TEXT_CHARS = {63, 16_383, 4_194_303, 1_073_741_823};
    private static final long[] BLOB_BYTES = {255, 65_535, 16_777_215, 4_294_967_295L};
    private static final List<String> NOT_A_COLUMN = List.of(
            "PRIMARY", "KEY", "INDEX", "UNIQUE", "CONSTRAINT", "FOREIGN", "FULLTEXT", "SPATIAL", "CHECK", "PERIOD",
            "PARTITION", "SYSTEM");

    private final int[] releaseBeingBuilt;
    private final Map<String, Map<String, Column>> tables = new HashMap<>();
    private final List<Refusal> refusals = new ArrayList<>();

    private ExpandOnlyMigrations(String releaseBeingBuilt) {
        this.releaseBeingBuilt = release(releaseBeingBuilt);
    }

    /**
     * The refusals of all scripts, checked in the order given (Flyway's version order); empty when every script only
     * expands.
     *
     * @param releaseBeingBuilt the project version ({@code 0.4.0-SNAPSHOT} reads as 0.4.0): a contract marker must
     *     name an older release
     */
    static List<Refusal> check(String releaseBeingBuilt, List<Script> scripts) {
        var rules = new ExpandOnlyMigrations(releaseBeingBuilt);
        for (var script : scripts) {
            rules.read(script);
        }
        return List.copyOf(rules.refusals);
    }

    private void read(Script script) {
        var markers = new HashMap<String, String>();
        var matcher = CONTRACT.matcher(script.text());
        while (matcher.find()) {
            markers.put(matcher.group(1).replace("`", "").toLowerCase(Locale.ROOT), matcher.group(2));
        }
        for (var statement : SqlTokens.statements(script.text())) {
            new Statement(script.name(), statement, markers).read();
        }
    }

    /** One statement of a script, read against the schema the earlier statements left. */
    private final class Statement {
        private final String script;
        private final List<String> tokens;
        private final Map<String, String> markers;

        Statement(String script, List<String> tokens, Map<String, String> markers) {
            this.script = script;
            this.tokens = tokens;
            this.markers = markers;
        }

        void read() {
            if (is(0, "CREATE") && is(1, "TABLE")) {
                createTable();
            } else if (is(0, "DROP") && (is(1, "TABLE") || is(2, "TABLE"))) {
                dropTables();
            } else if (is(0, "RENAME") && is(1, "TABLE")) {
                renameTables();
            } else if (is(0, "ALTER") && (is(1, "TABLE") || is(2, "TABLE"))) {
                alterTable();
            }
        }

        private void createTable() {
            int at = 2;
            if (is(at, "IF")) {
                at += 3;
            }
            var table = name(at);
            if (!"(".equals(token(at + 1))) {
                return; // CREATE TABLE ... LIKE / AS SELECT: nothing the previous release reads changes
            }
            var columns = new HashMap<String, Column>();
            for (var definition : SqlTokens.splitTopLevel(tokens.subList(at + 2, SqlTokens.closing(tokens, at + 1)))) {
                if (!definition.isEmpty() && !NOT_A_COLUMN.contains(upper(definition.getFirst()))) {
                    columns.put(lower(definition.getFirst()), Column.of(definition.subList(1, definition.size())));
                }
            }
            tables.putIfAbsent(table, columns);
        }

        private void dropTables() {
            int at = is(1, "TEMPORARY") ? 3 : 2;
            if (is(at, "IF")) {
                at += 2;
            }
            for (var names : SqlTokens.splitTopLevel(tokens.subList(at, tokens.size()))) {
                if (!names.isEmpty() && !List.of("RESTRICT", "CASCADE").contains(upper(names.getFirst()))) {
                    var table = lower(names.getFirst());
                    if (contract(table, "drops the table " + table)) {
                        tables.remove(table);
                    }
                }
            }
        }

        private void renameTables() {
            for (var pair : SqlTokens.splitTopLevel(tokens.subList(2, tokens.size()))) {
                if (pair.size() >= 3) {
                    var from = lower(pair.getFirst());
                    var to = lower(pair.get(2));
                    if (contract(from, "renames the table " + from + " to " + to)) {
                        var columns = tables.remove(from);
                        if (columns != null) {
                            tables.put(to, columns);
                        }
                    }
                }
            }
        }

        private void alterTable() {
            int at = is(1, "TABLE") ? 2 : 3;
            if (is(at, "IF")) {
                at += 2;
            }
            var table = name(at);
            var columns = tables.computeIfAbsent(table, t -> new HashMap<>());
            for (var spec : SqlTokens.splitTopLevel(tokens.subList(at + 1, tokens.size()))) {
                if (!spec.isEmpty()) {
                    new AlterSpec(table, columns, spec).read();
                }
            }
        }

        /** One comma-separated part of an ALTER TABLE. */
        private final class AlterSpec {
            private final String table;
            private final Map<String, Column> columns;
            private final List<String> spec;

            AlterSpec(String table, Map<String, Column> columns, List<String> spec) {
                this.table = table;
                this.columns = columns;
                this.spec = spec;
            }

            void read() {
                switch (upper(spec.getFirst())) {
                    case "ADD" -> add();
                    case "DROP" -> drop();
                    case "RENAME" -> rename();
                    case "CHANGE" -> change();
                    case "MODIFY" -> modify();
                    case "ALTER" -> alterColumn();
                    default -> { } // table options, ALGORITHM, LOCK, ...: nothing a reader sees
                }
            }

            private void add() {
                int at = 1;
                if (at < spec.size() && NOT_A_COLUMN.contains(upper(spec.get(at)))) {
                    return;
                }
                if (is("COLUMN", at)) {
                    at++;
                }
                if ("(".equals(spec.get(at))) {
                    for (var definition : SqlTokens.splitTopLevel(spec.subList(at + 1, SqlTokens.closing(spec, at)))) {
                        addColumn(definition);
                    }
                    return;
                }
                if (is("IF", at)) {
                    at += 3;
                }
                addColumn(spec.subList(at, spec.size()));
            }

            private void addColumn(List<String> definition) {
                var name = lower(definition.getFirst());
                var column = Column.of(definition.subList(1, definition.size()));
                if (!column.nullable() && !column.hasDefault() && !column.autoIncrement() && !column.generated()) {
                    refuse("adds the NOT NULL column " + table + "." + name + " without a DEFAULT to an existing table"
                            + ": the previous release's inserts leave it out and fail; give it a DEFAULT or make it"
                            + " NULL");
                }
                columns.put(name, column);
            }

            private void drop() {
                int at = 1;
                if (NOT_A_COLUMN.contains(upper(spec.get(at)))) {
                    return; // an index, key or constraint: readers never name them
                }
                if (is("COLUMN", at)) {
                    at++;
                }
                if (is("IF", at)) {
                    at += 2;
                }
                var name = lower(spec.get(at));
                if (contract(table + "." + name, "drops the column " + table + "." + name)) {
                    columns.remove(name);
                }
            }

            private void rename() {
                if (is("COLUMN", 1)) {
                    var from = lower(spec.get(2));
                    var to = lower(spec.get(4));
                    renameColumn(from, to, columns.get(from));
                } else if (!is("INDEX", 1) && !is("KEY", 1) && !is("CONSTRAINT", 1)) {
                    var to = lower(spec.get(is("TO", 1) || is("AS", 1) ? 2 : 1));
                    if (contract(table, "renames the table " + table + " to " + to)) {
                        tables.put(to, tables.remove(table));
                    }
                }
            }

            private void renameColumn(String from, String to, Column column) {
                if (contract(table + "." + from, "renames the column " + table + "." + from + " to " + to)) {
                    columns.remove(from);
                    if (column != null) {
                        columns.put(to, column);
                    }
                }
            }

            private void change() {
                int at = is("COLUMN", 1) ? 2 : 1;
                if (is("IF", at)) {
                    at += 2;
                }
                var from = lower(spec.get(at));
                var to = lower(spec.get(at + 1));
                var after = Column.of(spec.subList(at + 2, spec.size()));
                if (!from.equals(to)) {
                    renameColumn(from, to, after);
                    return;
                }
                replace(from, after);
            }

            private void modify() {
                int at = is("COLUMN", 1) ? 2 : 1;
                if (is("IF", at)) {
                    at += 2;
                }
                var name = lower(spec.get(at));
                replace(name, Column.of(spec.subList(at + 1, spec.size())));
            }

            private void replace(String name, Column after) {
                var before = columns.get(name);
                if (before == null) {
                    refuse("changes " + table + "." + name + ", a column no earlier migration created: the rule cannot"
                            + " tell whether it narrows");
                } else {
                    before.narrowedBy(after).ifPresent(how -> contract(table + "." + name,
                            "narrows the column " + table + "." + name + ": " + how));
                }
                columns.put(name, after);
            }

            private void alterColumn() {
                int at = is("COLUMN", 1) ? 2 : 1;
                var name = lower(spec.get(at));
                var column = columns.get(name);
                if (is("DROP", at + 1) && is("DEFAULT", at + 2) && column != null) {
                    if (!column.nullable()) {
                        contract(table + "." + name, "drops the default of the NOT NULL column " + table + "." + name
                                + ": the previous release's inserts that leave it out fail");
                    }
                    columns.put(name, column.withDefault(false));
                } else if (is("SET", at + 1) && is("DEFAULT", at + 2) && column != null) {
                    columns.put(name, column.withDefault(true));
                }
            }

            private boolean is(String keyword, int index) {
                return index < spec.size() && keyword.equals(upper(spec.get(index)));
            }
        }

        /** True when the change may go ahead (a valid contract marker names it); else records the refusal. */
        private boolean contract(String object, String what) {
            var release = markers.get(object);
            if (release == null) {
                refuse(what + ", which the previous release still reads: a release only expands the schema; remove"
                        + " it one release after the code stopped reading it, with the marker"
                        + " '-- contract: " + object + " unread since <that release>'");
                return false;
            }
            if (compare(release(release), releaseBeingBuilt) >= 0) {
                refuse(what + ": its contract marker names release " + release + ", which is not older than the"
                        + " release being built (" + releaseBeingBuiltText() + "); the"
                        + " previous release must have stopped reading it");
                return false;
            }
            return true;
        }

        private void refuse(String reason) {
            refusals.add(new Refusal(script, String.join(" ", tokens), reason));
        }

        private boolean is(int index, String keyword) {
            return index < tokens.size() && keyword.equals(upper(tokens.get(index)));
        }

        private String token(int index) {
            return index < tokens.size() ? tokens.get(index) : "";
        }

        /** A table name, without its schema. */
        private String name(int index) {
            if (".".equals(token(index + 1))) {
                return lower(token(index + 2));
            }
            return lower(token(index));
        }
    }

    private String releaseBeingBuiltText() {
        var parts = new ArrayList<String>();
        for (int part : releaseBeingBuilt) {
            parts.add(Integer.toString(part));
        }
        return String.join(".", parts);
    }

    /**
     * What a column is as far as readers and writers of the previous release care: its type, size, sign,
     * nullability and whether inserts may leave it out.
     */
    record Column(String type, List<String> arguments, boolean unsigned, boolean nullable, boolean hasDefault,
            boolean autoIncrement, boolean generated) {

        static Column of(List<String> definition) {
            var type = upper(definition.getFirst());
            type = switch (type) {
                case "INTEGER" -> "INT";
                case "BOOLEAN", "BOOL" -> "TINYINT";
                case "DEC", "NUMERIC", "FIXED" -> "DECIMAL";
                default -> type;
            };
            var arguments = new ArrayList<String>();
            int at = 1;
            if (at < definition.size() && "(".equals(definition.get(at))) {
                int end = SqlTokens.closing(definition, at);
                for (var argument : SqlTokens.splitTopLevel(definition.subList(at + 1, end))) {
                    arguments.add(String.join("", argument));
                }
                at = end + 1;
            }
            boolean unsigned = false;
            boolean nullable = true;
            boolean hasDefault = false;
            boolean autoIncrement = false;
            boolean generated = false;
            for (int i = at; i < definition.size(); i++) {
                switch (upper(definition.get(i))) {
                    case "UNSIGNED" -> unsigned = true;
                    case "NOT" -> {
                        if (i + 1 < definition.size() && "NULL".equals(upper(definition.get(i + 1)))) {
                            nullable = false;
                            i++;
                        }
                    }
                    case "NULL" -> nullable = true;
                    case "DEFAULT" -> hasDefault = true;
                    case "AUTO_INCREMENT" -> autoIncrement = true;
                    case "GENERATED", "AS" -> generated = true;
                    case "PRIMARY" -> nullable = false;
                    case "COMMENT" -> i++;
                    default -> { }
                }
            }
            return new Column(type, List.copyOf(arguments), unsigned, nullable, hasDefault, autoIncrement, generated);
        }

        Column withDefault(boolean value) {
            return new Column(type, arguments, unsigned, nullable, value, autoIncrement, generated);
        }

        /** How {@code after} takes away from this column (a value or an insert of the previous release that fails). */
        Optional<String> narrowedBy(Column after) {
            if (nullable && !after.nullable) {
                return Optional.of("NULL to NOT NULL (the previous release may write NULL)");
            }
            if (!after.nullable && hasDefault && !after.hasDefault && !after.autoIncrement) {
                return Optional.of("a NOT NULL column loses its DEFAULT (the previous release's inserts leave it out)");
            }
            if (unsigned != after.unsigned) {
                return Optional.of((unsigned ? "UNSIGNED" : "signed") + " to " + (after.unsigned ? "UNSIGNED" : "signed"));
            }
            if (!holds(after)) {
                return Optional.of(describe() + " to " + after.describe() + " (not every value fits)");
            }
            return Optional.empty();
        }

        private boolean holds(Column after) {
            if (INTEGERS.contains(type) && INTEGERS.contains(after.type)) {
                return INTEGERS.indexOf(after.type) >= INTEGERS.indexOf(type);
            }
            if (type.equals(after.type)) {
                return switch (type) {
                    case "ENUM", "SET" -> after.arguments.size() >= arguments.size()
                            && after.arguments.subList(0, arguments.size()).equals(arguments);
                    case "DECIMAL" -> number(after, 0, 10) >= number(this, 0, 10)
                            && number(after, 1, 0) >= number(this, 1, 0)
                            && number(after, 0, 10) - number(after, 1, 0) >= number(this, 0, 10) - number(this, 1, 0);
                    default -> number(after, 0, 0) >= number(this, 0, 0);
                };
            }
            if (type.equals("CHAR") && after.type.equals("VARCHAR")
                    || type.equals("BINARY") && after.type.equals("VARBINARY")) {
                return number(after, 0, 1) >= number(this, 0, 1);
            }
            if (type.equals("VARCHAR") && TEXTS.contains(after.type)) {
                return TEXT_CHARS[TEXTS.indexOf(after.type)] >= number(this, 0, 0);
            }
            if (TEXTS.contains(type) && TEXTS.contains(after.type)) {
                return TEXTS.indexOf(after.type) >= TEXTS.indexOf(type);
            }
            if (type.equals("VARBINARY") && BLOBS.contains(after.type)) {
                return BLOB_BYTES[BLOBS.indexOf(after.type)] >= number(this, 0, 0);
            }
            if (BLOBS.contains(type) && BLOBS.contains(after.type)) {
                return BLOBS.indexOf(after.type) >= BLOBS.indexOf(type);
            }
            return false;
        }

        private static long number(Column column, int index, long absent) {
            return index < column.arguments.size() ? Long.parseLong(column.arguments.get(index)) : absent;
        }

        private String describe() {
            return type + (arguments.isEmpty() ? "" : "(" + String.join(",", arguments) + ")")
                    + (unsigned ? " UNSIGNED" : "") + (nullable ? " NULL" : " NOT NULL");
        }
    }

    private static int[] release(String version) {
        var matcher = RELEASE.matcher(version);
        if (!matcher.find()) {
            throw new IllegalArgumentException("not a release: " + version);
        }
        var parts = matcher.group().split("\\.");
        var numbers = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            numbers[i] = Integer.parseInt(parts[i]);
        }
        return numbers;
    }

    private static int compare(int[] a, int[] b) {
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            int x = i < a.length ? a[i] : 0;
            int y = i < b.length ? b[i] : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    private static String upper(String token) {
        return token.toUpperCase(Locale.ROOT);
    }

    private static String lower(String token) {
        return token.toLowerCase(Locale.ROOT);
    }
}
