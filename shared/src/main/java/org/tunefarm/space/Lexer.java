package org.tunefarm.space;

import org.tunefarm.space.Token.Kind;

/**
 * Splits a constraint expression into tokens on demand, so the parser reports the first problem
 * in reading order. Only the characters of the language are accepted; anything else (dots,
 * semicolons, backticks, a lone '=', '&' or '|') stops here with its position.
 */
final class Lexer {
    private final String text;
    private int pos;

    Lexer(String text) {
        this.text = text;
    }

    Token next() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
        int start = pos;
        if (pos >= text.length()) return new Token(Kind.END, "", start);
        char c = text.charAt(pos);
        if (isDigit(c)) return number(start);
        if (isIdentifierStart(c)) return word(start);
        if (c == '"') return string(start);
        Kind two = pos + 1 < text.length() ? twoCharKind(c, text.charAt(pos + 1)) : null;
        if (two != null) {
            pos += 2;
            return new Token(two, text.substring(start, pos), start);
        }
        Kind one = oneCharKind(c);
        if (one == null) {
            String shown = text.substring(start, start + Character.charCount(text.codePointAt(start)));
            String hint = switch (c) {
                case '=' -> " (assignment is not allowed; use '==')";
                case '&' -> " (use '&&')";
                case '|' -> " (use '||')";
                default -> "";
            };
            throw new ExpressionException("unexpected character '" + shown + "'" + hint, text, start);
        }
        pos++;
        return new Token(one, String.valueOf(c), start);
    }

    private Token number(int start) {
        while (pos < text.length() && isDigit(text.charAt(pos))) pos++;
        String digits = text.substring(start, pos);
        try {
            Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new ExpressionException("integer literal '" + digits + "' is too large", text, start);
        }
        return new Token(Kind.INTEGER, digits, start);
    }

    private Token word(int start) {
        while (pos < text.length() && (isIdentifierStart(text.charAt(pos)) || isDigit(text.charAt(pos)))) pos++;
        String w = text.substring(start, pos);
        return new Token(w.equals("in") ? Kind.IN : Kind.IDENTIFIER, w, start);
    }

    /** A double-quoted string; backslash escapes only '"' and '\'. The token's text is the unquoted value. */
    private Token string(int start) {
        StringBuilder value = new StringBuilder();
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') return new Token(Kind.STRING, value.toString(), start);
            if (c == '\\') {
                if (pos >= text.length() || (text.charAt(pos) != '"' && text.charAt(pos) != '\\')) {
                    throw new ExpressionException("unsupported escape in string literal", text, pos - 1);
                }
                c = text.charAt(pos++);
            }
            value.append(c);
        }
        throw new ExpressionException("unterminated string literal '" + text.substring(start) + "'", text, start);
    }

    private static Kind twoCharKind(char a, char b) {
        return switch ("" + a + b) {
            case "==" -> Kind.EQ;
            case "!=" -> Kind.NE;
            case "<=" -> Kind.LE;
            case ">=" -> Kind.GE;
            case "&&" -> Kind.AND;
            case "||" -> Kind.OR;
            default -> null;
        };
    }

    private static Kind oneCharKind(char c) {
        return switch (c) {
            case '+' -> Kind.PLUS;
            case '-' -> Kind.MINUS;
            case '*' -> Kind.STAR;
            case '/' -> Kind.SLASH;
            case '%' -> Kind.PERCENT;
            case '<' -> Kind.LT;
            case '>' -> Kind.GT;
            case '!' -> Kind.NOT;
            case '(' -> Kind.LPAREN;
            case ')' -> Kind.RPAREN;
            case '[' -> Kind.LBRACKET;
            case ']' -> Kind.RBRACKET;
            case ',' -> Kind.COMMA;
            default -> null;
        };
    }

    // ASCII only: Character.isDigit would let other scripts' digits through to Long.parseLong.
    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentifierStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }
}
