package org.tunefarm.space;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunefarm.space.Expr.Type;
import org.tunefarm.space.Token.Kind;

/**
 * Recursive-descent parser for constraint expressions, one method per precedence level (lowest
 * first): {@code ||}, {@code &&}, {@code == !=}, {@code < <= > >= in}, {@code + -},
 * {@code * / %}, unary {@code - !}, then literals, names and parentheses. Types and names are
 * checked as the tree is built. Nesting is bounded twice: the parser's own recursion (parentheses,
 * unary operators) and the depth of the tree (long operator chains build deep trees without
 * recursing), so neither parsing nor evaluation can overflow the stack on hostile input.
 */
final class Parser {
    static final int MAX_DEPTH = 64;

    private final String text;
    private final Lexer lexer;
    private final Map<String, Integer> positions = new HashMap<>();
    private final List<Parameter> parameters;
    private Token current;
    private int nesting;

    Parser(String text, List<Parameter> parameters) {
        this.text = text;
        this.parameters = parameters;
        for (int i = 0; i < parameters.size(); i++) positions.putIfAbsent(parameters.get(i).name(), i);
        this.lexer = new Lexer(text);
        this.current = lexer.next();
    }

    /** Parses the whole text as one boolean expression. */
    Expr parse() {
        Token first = current;
        Expr root = or();
        if (current.kind() != Kind.END) throw error("unexpected " + current.describe(), current);
        if (root.type() != Type.BOOL) {
            throw error("a constraint must be a boolean expression, but this one is " + name(root.type()), first);
        }
        return root;
    }

    /** Parses the whole text as one integer expression (a formula such as {@code 2*M*N*K}). */
    Expr parseInteger() {
        Token first = current;
        Expr root = or();
        if (current.kind() != Kind.END) throw error("unexpected " + current.describe(), current);
        if (root.type() != Type.INT) {
            throw error("a formula must be an integer expression, but this one is " + name(root.type()), first);
        }
        return root;
    }

    private Expr or() {
        Expr left = and();
        while (current.kind() == Kind.OR) {
            Token op = advance();
            left = bounded(new Expr.Logic(Kind.OR, needs(Type.BOOL, left, op), needs(Type.BOOL, and(), op)), op);
        }
        return left;
    }

    private Expr and() {
        Expr left = equality();
        while (current.kind() == Kind.AND) {
            Token op = advance();
            left = bounded(new Expr.Logic(Kind.AND, needs(Type.BOOL, left, op), needs(Type.BOOL, equality(), op)), op);
        }
        return left;
    }

    private Expr equality() {
        Expr left = relation();
        while (current.kind() == Kind.EQ || current.kind() == Kind.NE) {
            Token op = advance();
            Expr right = relation();
            if (left.type() != right.type()) {
                throw error(op.describe() + " compares " + name(left.type()) + " with " + name(right.type()), op);
            }
            left = bounded(new Expr.Comparison(op.kind(), left, right), op);
        }
        return left;
    }

    private Expr relation() {
        Expr left = additive();
        while (true) {
            switch (current.kind()) {
                case LT, LE, GT, GE -> {
                    Token op = advance();
                    left = bounded(new Expr.Comparison(op.kind(), needs(Type.INT, left, op), needs(Type.INT, additive(), op)), op);
                }
                case IN -> {
                    Token op = advance();
                    if (left.type() == Type.BOOL) throw error("'in' needs an integer or a string on its left, not a boolean", op);
                    left = bounded(new Expr.Membership(left, members(left.type())), op);
                }
                default -> {
                    return left;
                }
            }
        }
    }

    private Expr additive() {
        Expr left = term();
        while (current.kind() == Kind.PLUS || current.kind() == Kind.MINUS) {
            Token op = advance();
            left = bounded(new Expr.Arithmetic(op.kind(), needs(Type.INT, left, op), needs(Type.INT, term(), op)), op);
        }
        return left;
    }

    private Expr term() {
        Expr left = unary();
        while (current.kind() == Kind.STAR || current.kind() == Kind.SLASH || current.kind() == Kind.PERCENT) {
            Token op = advance();
            left = bounded(new Expr.Arithmetic(op.kind(), needs(Type.INT, left, op), needs(Type.INT, unary(), op)), op);
        }
        return left;
    }

    private Expr unary() {
        if (current.kind() != Kind.MINUS && current.kind() != Kind.NOT) return primary();
        Token op = advance();
        enter(op);
        Expr operand = unary();
        nesting--;
        return op.kind() == Kind.MINUS
                ? bounded(new Expr.Negate(needs(Type.INT, operand, op)), op)
                : bounded(new Expr.Not(needs(Type.BOOL, operand, op)), op);
    }

    private Expr primary() {
        Token t = current;
        switch (t.kind()) {
            case INTEGER -> {
                advance();
                return new Expr.IntLiteral(Long.parseLong(t.text()));
            }
            case STRING -> {
                advance();
                return new Expr.StringLiteral(t.text());
            }
            case IDENTIFIER -> {
                // Resolve before reading on, so an unknown name is reported ahead of what follows it.
                Integer position = positions.get(t.text());
                if (position == null) throw error("unknown identifier " + t.describe(), t);
                advance();
                if (current.kind() == Kind.LPAREN) throw error("function calls are not allowed: " + t.describe(), t);
                Type type = parameters.get(position).isInteger() ? Type.INT : Type.STRING;
                return new Expr.ParameterRef(t.text(), position, type);
            }
            case LPAREN -> {
                advance();
                enter(t);
                Expr inner = or();
                nesting--;
                expect(Kind.RPAREN, "')' to close the '(' at position " + t.position());
                return inner;
            }
            default -> throw error("unexpected " + t.describe(), t);
        }
    }

    /** {@code [literal, ...]} after 'in'; each literal must have the operand's type. */
    private Set<Object> members(Type type) {
        expect(Kind.LBRACKET, "'[' after 'in'");
        Set<Object> members = new LinkedHashSet<>();
        if (current.kind() == Kind.RBRACKET) {
            advance();
            return members;
        }
        while (true) {
            members.add(member(type));
            if (current.kind() != Kind.COMMA) break;
            advance();
        }
        expect(Kind.RBRACKET, "',' or ']' in 'in' list");
        return members;
    }

    /** One literal of an 'in' list, with an optional minus for integers: a Long or a String. */
    private Object member(Type type) {
        Token start = current;
        boolean negative = current.kind() == Kind.MINUS;
        if (negative) advance();
        Token t = current;
        Object value;
        if (t.kind() == Kind.INTEGER && type == Type.INT) {
            long v = Long.parseLong(t.text());
            value = negative ? -v : v;
        } else if (t.kind() == Kind.STRING && type == Type.STRING && !negative) {
            value = t.text();
        } else if (t.kind() == Kind.INTEGER || t.kind() == Kind.STRING) {
            throw error("'in' list for " + name(type) + " holds " + start.describe(), start);
        } else {
            throw error("expected a literal in 'in' list but found " + t.describe(), t);
        }
        advance();
        return value;
    }

    private Expr needs(Type type, Expr operand, Token op) {
        if (operand.type() != type) {
            throw error(op.describe() + " needs " + name(type) + " operands, not " + name(operand.type()), op);
        }
        return operand;
    }

    private Expr bounded(Expr e, Token op) {
        if (e.depth() > MAX_DEPTH) throw error("expression is nested deeper than " + MAX_DEPTH + " levels at " + op.describe(), op);
        return e;
    }

    private void enter(Token t) {
        if (++nesting > MAX_DEPTH) throw error("expression is nested deeper than " + MAX_DEPTH + " levels at " + t.describe(), t);
    }

    private void expect(Kind kind, String what) {
        if (current.kind() != kind) throw error("expected " + what + " but found " + current.describe(), current);
        advance();
    }

    private Token advance() {
        Token t = current;
        current = lexer.next();
        return t;
    }

    private ExpressionException error(String message, Token at) {
        return new ExpressionException(message, text, at.position());
    }

    private static String name(Type type) {
        return switch (type) {
            case INT -> "integer";
            case STRING -> "string";
            case BOOL -> "boolean";
        };
    }
}
