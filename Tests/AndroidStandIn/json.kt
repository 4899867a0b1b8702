@file:Suppress("unused")

package org.json

// Android's org.json (android.jar), the part apps use to read JSON: JSONObject and JSONArray parsed
// from text, values read with opt*. As Android's: an object keeps its keys in document order (a
// LinkedHashMap), a later duplicate key replaces an earlier one, numbers are Integer when they fit,
// else Long, else Double, JSON null is JSONObject.NULL, and malformed text throws JSONException.
// It reads nested values recursively, as Android's JSONTokener does, so a deep enough text ends in a
// StackOverflowError (an Error, not a JSONException). As Android's, it takes single-quoted strings
// (names and values); Android's is more lenient still (unquoted strings, comments, `=` and `;`
// separators): text it accepts and this one refuses is not JSON, and code under test must check the
// types of what it reads either way.

open class JSONException(message: String) : RuntimeException(message)

class JSONObject {
    private val values = LinkedHashMap<String, Any>()

    constructor()

    @Throws(JSONException::class)
    constructor(json: String) {
        val tokener = Tokener(json)
        val value = tokener.value()
        tokener.end()
        if (value !is JSONObject) throw JSONException("Value " + json.take(40) + " cannot be converted to JSONObject")
        values.putAll(value.values)
    }

    internal fun putValue(name: String, value: Any) { values[name] = value }

    fun length(): Int = values.size
    fun has(name: String): Boolean = values.containsKey(name)
    fun isNull(name: String): Boolean = values[name] == null || values[name] === NULL
    fun keys(): Iterator<String> = values.keys.iterator()
    fun opt(name: String): Any? = values[name]
    fun optJSONObject(name: String): JSONObject? = values[name] as? JSONObject
    fun optJSONArray(name: String): JSONArray? = values[name] as? JSONArray

    /** The value coerced to a string (a number or boolean as its text), or `fallback` when absent or null. */
    fun optString(name: String, fallback: String): String {
        val value = values[name]
        return if (value == null || value === NULL) fallback else value.toString()
    }

    fun optBoolean(name: String, fallback: Boolean): Boolean {
        val value = values[name]
        return when {
            value is Boolean -> value
            value is String && value.equals("true", ignoreCase = true) -> true
            value is String && value.equals("false", ignoreCase = true) -> false
            else -> fallback
        }
    }

    companion object {
        @JvmField val NULL: Any = object : Any() {
            override fun toString(): String = "null"
            override fun equals(other: Any?): Boolean = other === this || other == null
            override fun hashCode(): Int = 0
        }
    }
}

class JSONArray {
    private val values = ArrayList<Any>()

    constructor()

    @Throws(JSONException::class)
    constructor(json: String) {
        val tokener = Tokener(json)
        val value = tokener.value()
        tokener.end()
        if (value !is JSONArray) throw JSONException("Value " + json.take(40) + " cannot be converted to JSONArray")
        values.addAll(value.values)
    }

    internal fun add(value: Any) { values.add(value) }

    fun length(): Int = values.size
    fun opt(index: Int): Any? = if (index in 0 until values.size) values[index] else null
    fun optJSONObject(index: Int): JSONObject? = opt(index) as? JSONObject
    fun optString(index: Int, fallback: String): String {
        val value = opt(index)
        return if (value == null || value === JSONObject.NULL) fallback else value.toString()
    }
}

/** A strict JSON reader (RFC 8259), recursive and unbounded as Android's. */
private class Tokener(private val text: String) {
    private var at = 0

    fun end() {
        space()
        if (at != text.length) fail("Unterminated value")
    }

    fun value(): Any {
        space()
        if (at >= text.length) fail("End of input")
        return when (val c = text[at]) {
            '{' -> obj()
            '[' -> array()
            '"', '\'' -> string()
            't' -> literal("true", true)
            'f' -> literal("false", false)
            'n' -> literal("null", JSONObject.NULL)
            else -> if (c == '-' || c in '0'..'9') number() else fail("Unexpected character " + c)
        }
    }

    private fun obj(): JSONObject {
        val result = JSONObject()
        at++
        space()
        if (peek() == '}') { at++; return result }
        while (true) {
            space()
            if (peek() != '"' && peek() != '\'') fail("Expected a name")
            val name = string()
            space()
            if (peek() != ':') fail("Expected ':' after " + name)
            at++
            result.putValue(name, value())
            space()
            when (peek()) {
                ',' -> at++
                '}' -> { at++; return result }
                else -> fail("Unterminated object")
            }
        }
    }

    private fun array(): JSONArray {
        val result = JSONArray()
        at++
        space()
        if (peek() == ']') { at++; return result }
        while (true) {
            result.add(value())
            space()
            when (peek()) {
                ',' -> at++
                ']' -> { at++; return result }
                else -> fail("Unterminated array")
            }
        }
    }

    private fun string(): String {
        val quote = text[at++]
        val builder = StringBuilder()
        while (true) {
            if (at >= text.length) fail("Unterminated string")
            val c = text[at++]
            when {
                c == quote -> return builder.toString()
                c == '\\' -> {
                    if (at >= text.length) fail("Unterminated escape")
                    when (val e = text[at++]) {
                        '"', '\'', '\\', '/' -> builder.append(e)
                        'b' -> builder.append('\b')
                        'f' -> builder.append('\u000C')
                        'n' -> builder.append('\n')
                        'r' -> builder.append('\r')
                        't' -> builder.append('\t')
                        'u' -> {
                            if (at + 4 > text.length) fail("Unterminated escape")
                            val code = text.substring(at, at + 4).toIntOrNull(16) ?: fail("Invalid escape")
                            builder.append(code.toChar())
                            at += 4
                        }
                        else -> fail("Invalid escape")
                    }
                }
                c < ' ' -> fail("Unescaped control character")
                else -> builder.append(c)
            }
        }
    }

    private fun number(): Any {
        val start = at
        if (peek() == '-') at++
        while (at < text.length && (text[at] in '0'..'9' || text[at] in ".eE+-")) at++
        val literal = text.substring(start, at)
        if (!Regex("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?").matches(literal)) fail("Invalid number " + literal)
        if (literal.none { it == '.' || it == 'e' || it == 'E' }) {
            literal.toIntOrNull()?.let { return it }
            literal.toLongOrNull()?.let { return it }
        }
        return literal.toDouble()
    }

    private fun literal(word: String, value: Any): Any {
        if (!text.startsWith(word, at)) fail("Unexpected literal")
        at += word.length
        return value
    }

    private fun peek(): Char? = if (at < text.length) text[at] else null

    private fun space() {
        while (at < text.length && text[at] in " \t\r\n") at++
    }

    private fun fail(message: String): Nothing = throw JSONException(message + " at character " + at)
}
