package org.tunefarm.agent.kernels.command;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A command line with {@code {name}} placeholders, substituted token by token: a value becomes
 * (part of) one argv element and is never seen by a shell, so no value can add an argument or a
 * command. {@code {{} and {@code }}} stand for literal braces.
 *
 * @param tokens the argv as written in the config
 * @param names  the placeholders it uses
 */
public record ArgvTemplate(List<String> tokens, Set<String> names) {

    private static final Pattern PIECE = Pattern.compile("\\{\\{|}}|\\{([A-Za-z_][A-Za-z0-9_]*)}|[{}]");

    public ArgvTemplate {
        tokens = List.copyOf(tokens);
        names = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(names));
    }

    /**
     * @param field the config field, for messages such as {@code commandKernels[0].run[2]}
     * @param known the names a placeholder may refer to
     * @throws IllegalArgumentException naming the field and token at fault
     */
    public static ArgvTemplate parse(List<String> tokens, Collection<String> known, String field) {
        if (tokens == null || tokens.isEmpty()) throw new IllegalArgumentException(field + ": must be a non-empty list of arguments");
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < tokens.size(); i++) {
            String t = tokens.get(i);
            String f = field + "[" + i + "]";
            if (t == null) throw new IllegalArgumentException(f + ": is null");
            Matcher m = PIECE.matcher(t);
            while (m.find()) {
                String g = m.group();
                if (g.equals("{{") || g.equals("}}")) continue;
                if (m.group(1) == null) throw new IllegalArgumentException(f + ": stray '" + g + "' at position " + m.start() + " in '" + t + "' (write {{ or }} for a literal brace)");
                if (!known.contains(m.group(1))) {
                    throw new IllegalArgumentException(f + ": unknown placeholder {" + m.group(1) + "} in '" + t + "' (known: " + known + ")");
                }
                names.add(m.group(1));
            }
        }
        if (tokens.get(0).isBlank()) throw new IllegalArgumentException(field + "[0]: the program is blank");
        return new ArgvTemplate(tokens, names);
    }

    /**
     * The argv with every placeholder replaced by its value.
     *
     * @throws IllegalArgumentException when a used name has no value
     */
    public List<String> substitute(Map<String, String> values) {
        List<String> out = new ArrayList<>(tokens.size());
        for (String t : tokens) {
            Matcher m = PIECE.matcher(t);
            StringBuilder b = new StringBuilder();
            while (m.find()) {
                String g = m.group();
                String v = g.equals("{{") ? "{" : g.equals("}}") ? "}" : values.get(m.group(1));
                if (v == null) throw new IllegalArgumentException("no value for {" + m.group(1) + "}");
                m.appendReplacement(b, Matcher.quoteReplacement(v));
            }
            m.appendTail(b);
            out.add(b.toString());
        }
        return out;
    }
}
