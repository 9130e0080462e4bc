package org.tunefarm.space;

import java.util.Set;
import org.tunefarm.space.Token.Kind;

/**
 * A node of a parsed constraint expression. Types are checked when the tree is built, so each
 * node is only asked for the kind of value its {@link #type()} promises: {@link #integer} for
 * INT, {@link #bool} for BOOL, {@link #value} for STRING. Integers are longs; an undefined result
 * (division by zero, overflow) throws {@link ArithmeticException}, which the constraint turns
 * into "not valid". {@link #depth()} is stored, not recomputed, so the parser can bound it cheaply
 * and evaluation can never recurse deeper than that bound.
 */
sealed interface Expr {

    enum Type { INT, STRING, BOOL }

    Type type();

    int depth();

    default long integer(int[] choices, SearchSpace space) {
        throw new IllegalStateException(this + " is not an integer expression");
    }

    default boolean bool(int[] choices, SearchSpace space) {
        throw new IllegalStateException(this + " is not a boolean expression");
    }

    /** The value as an object (Long, String or Boolean), for equality and membership. */
    default Object value(int[] choices, SearchSpace space) {
        return switch (type()) {
            case INT -> integer(choices, space);
            case BOOL -> bool(choices, space);
            case STRING -> throw new IllegalStateException(this + " has no string value");
        };
    }

    record IntLiteral(long literal) implements Expr {
        public Type type() { return Type.INT; }
        public int depth() { return 1; }
        public long integer(int[] choices, SearchSpace space) { return literal; }
    }

    record StringLiteral(String literal) implements Expr {
        public Type type() { return Type.STRING; }
        public int depth() { return 1; }
        public Object value(int[] choices, SearchSpace space) { return literal; }
    }

    /** A parameter, resolved to its position in the space when parsed. */
    record ParameterRef(String name, int position, Type type) implements Expr {
        public int depth() { return 1; }
        public long integer(int[] choices, SearchSpace space) { return (Integer) space.value(choices, position); }
        public Object value(int[] choices, SearchSpace space) {
            return type == Type.INT ? integer(choices, space) : space.value(choices, position);
        }
    }

    record Negate(Expr operand, int depth) implements Expr {
        Negate(Expr operand) { this(operand, operand.depth() + 1); }
        public Type type() { return Type.INT; }
        public long integer(int[] choices, SearchSpace space) { return Math.negateExact(operand.integer(choices, space)); }
    }

    record Not(Expr operand, int depth) implements Expr {
        Not(Expr operand) { this(operand, operand.depth() + 1); }
        public Type type() { return Type.BOOL; }
        public boolean bool(int[] choices, SearchSpace space) { return !operand.bool(choices, space); }
    }

    /** + - * / % over integers. */
    record Arithmetic(Kind op, Expr left, Expr right, int depth) implements Expr {
        Arithmetic(Kind op, Expr left, Expr right) { this(op, left, right, 1 + Math.max(left.depth(), right.depth())); }
        public Type type() { return Type.INT; }
        public long integer(int[] choices, SearchSpace space) {
            long l = left.integer(choices, space);
            long r = right.integer(choices, space);
            return switch (op) {
                case PLUS -> Math.addExact(l, r);
                case MINUS -> Math.subtractExact(l, r);
                case STAR -> Math.multiplyExact(l, r);
                case SLASH -> divideExact(l, r);
                case PERCENT -> l % r;
                default -> throw new IllegalStateException("not arithmetic: " + op);
            };
        }

        /** Math.divideExact, which Java 17 (the agent's floor) lacks: the one overflowing quotient throws. */
        private static long divideExact(long l, long r) {
            if (l == Long.MIN_VALUE && r == -1) throw new ArithmeticException("long overflow");
            return l / r;
        }
    }

    /** == and != over two operands of one type; < <= > >= over integers only. */
    record Comparison(Kind op, Expr left, Expr right, int depth) implements Expr {
        Comparison(Kind op, Expr left, Expr right) { this(op, left, right, 1 + Math.max(left.depth(), right.depth())); }
        public Type type() { return Type.BOOL; }
        public boolean bool(int[] choices, SearchSpace space) {
            if (left.type() != Type.INT) {
                boolean same = left.value(choices, space).equals(right.value(choices, space));
                return op == Kind.EQ ? same : !same;
            }
            long l = left.integer(choices, space);
            long r = right.integer(choices, space);
            return switch (op) {
                case EQ -> l == r;
                case NE -> l != r;
                case LT -> l < r;
                case LE -> l <= r;
                case GT -> l > r;
                case GE -> l >= r;
                default -> throw new IllegalStateException("not a comparison: " + op);
            };
        }
    }

    /** && and ||, short-circuiting as in Java, so {@code b != 0 && a / b == 2} is safe. */
    record Logic(Kind op, Expr left, Expr right, int depth) implements Expr {
        Logic(Kind op, Expr left, Expr right) { this(op, left, right, 1 + Math.max(left.depth(), right.depth())); }
        public Type type() { return Type.BOOL; }
        public boolean bool(int[] choices, SearchSpace space) {
            return op == Kind.AND
                    ? left.bool(choices, space) && right.bool(choices, space)
                    : left.bool(choices, space) || right.bool(choices, space);
        }
    }

    /** {@code operand in [...]}; the members are literals of the operand's type (Long or String). */
    record Membership(Expr operand, Set<Object> members, int depth) implements Expr {
        Membership(Expr operand, Set<Object> members) { this(operand, Set.copyOf(members), operand.depth() + 1); }
        public Type type() { return Type.BOOL; }
        public boolean bool(int[] choices, SearchSpace space) { return members.contains(operand.value(choices, space)); }
    }
}
