package org.tunefarm.coordinator.table;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads CSV back as RFC 4180 defines it (quoted fields may hold commas, doubled quotes and line
 * breaks; rows end with CRLF), after the table's leading {@code #} comment lines: what a
 * spreadsheet or a script does with {@link TableCsv}'s output.
 */
public final class CsvRows {
    /** The comment lines, without their {@code # }. */
    public final List<String> comments = new ArrayList<>();
    /** Every row after the comments, the header first. */
    public final List<List<String>> rows = new ArrayList<>();

    public static CsvRows parse(String text) {
        CsvRows out = new CsvRows();
        int at = 0;
        while (text.startsWith("#", at)) {
            int end = text.indexOf("\r\n", at);
            if (end < 0) throw new IllegalArgumentException("a comment line without CRLF at " + at);
            out.comments.add(text.substring(at + 2, end));
            at = end + 2;
        }
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        while (at < text.length()) {
            char c = text.charAt(at);
            if (quoted) {
                if (c == '"' && text.startsWith("\"\"", at)) {
                    field.append('"');
                    at += 2;
                    continue;
                }
                if (c == '"') quoted = false;
                else field.append(c);
                at++;
            } else if (c == '"' && field.isEmpty()) {
                quoted = true;
                at++;
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
                at++;
            } else if (text.startsWith("\r\n", at)) {
                row.add(field.toString());
                field.setLength(0);
                out.rows.add(row);
                row = new ArrayList<>();
                at += 2;
            } else if (c == '"' || c == '\r' || c == '\n') {
                throw new IllegalArgumentException("a bare " + (int) c + " in an unquoted field at " + at);
            } else {
                field.append(c);
                at++;
            }
        }
        if (quoted || !row.isEmpty() || !field.isEmpty()) throw new IllegalArgumentException("the last row does not end with CRLF");
        return out;
    }

    /** The header row. */
    public List<String> header() {
        return rows.get(0);
    }

    /** Row {@code i} of the data (0: the first after the header), field {@code column} by name. */
    public String get(int i, String column) {
        return rows.get(i + 1).get(header().indexOf(column));
    }
}
