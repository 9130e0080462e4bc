package org.tunefarm.space;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An integer formula over named integers, such as a kernel's work {@code 2*M*N*K} over its shape.
 * It is the constraint language's arithmetic (same lexer, parser and limits), so a declaration
 * sent by an agent is parsed, never executed.
 */
public final class Formula {
    private final String text;
    private final List<String> names;
    private final Expr root;

    private Formula(String text, List<String> names, Expr root) {
        this.text = text;
        this.names = names;
        this.root = root;
    }

    /**
     * @param names the identifiers the formula may use
     * @throws ExpressionException naming the position of the offending token
     */
    public static Formula parse(String text, List<String> names) {
        Objects.requireNonNull(text, "text");
        List<String> ns = List.copyOf(names);
        return new Formula(text, ns, new Parser(text, placeholders(ns)).parseInteger());
    }

    public String text() { return text; }

    /**
     * The value for the given names' values.
     *
     * @throws ArithmeticException on overflow or division by zero
     * @throws IllegalArgumentException when a name has no value
     */
    public long evaluate(Map<String, Integer> values) {
        List<Parameter> ps = new ArrayList<>();
        for (String n : names) {
            Integer v = values.get(n);
            if (v == null) throw new IllegalArgumentException(n + " has no value");
            ps.add(Parameter.ints(n, v));
        }
        // A one-point space holds the values; the tree reads them by position like any parameter.
        return root.integer(new int[ps.size()], ps.isEmpty() ? null : new SearchSpace(ps, List.of()));
    }

    /** Integer parameters standing for the names, so the parser resolves and type-checks them. */
    private static List<Parameter> placeholders(List<String> names) {
        List<Parameter> ps = new ArrayList<>();
        for (String n : names) ps.add(Parameter.ints(n, 0));
        return ps;
    }

    @Override public String toString() { return text; }
}
