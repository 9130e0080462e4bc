package org.tunefarm.space;

/**
 * One lexical token of a constraint expression. {@code position} is the 0-based offset of its
 * first character, kept so every error can point at the token that caused it.
 */
record Token(Kind kind, String text, int position) {

    enum Kind {
        INTEGER, STRING, IDENTIFIER, IN,
        PLUS, MINUS, STAR, SLASH, PERCENT,
        EQ, NE, LT, LE, GT, GE,
        AND, OR, NOT,
        LPAREN, RPAREN, LBRACKET, RBRACKET, COMMA,
        END
    }

    /** How the token reads in an error message. */
    String describe() {
        return kind == Kind.END ? "end of expression" : "'" + text + "'";
    }
}
