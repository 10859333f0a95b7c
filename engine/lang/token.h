// Tokens of the script language. Probe specs are not tokens: the parser asks the lexer for the
// raw text of each attach point (paths and C++ names contain characters that are operators
// elsewhere), see Lexer::attach_point().
#pragma once
#include <cstdint>
#include <string>

#include "engine/lang/source.h"

namespace rawprobe::lang {

enum class Tok : uint8_t {
  End, Invalid,
  Ident, MapName, VarName, Integer, String, AttachPoint,
  Positional,  // $1, $2, ...: `value` is N
  ParamCount,  // $#
  // keywords
  KwIf, KwElse, KwWhile, KwUnroll, KwReturn, KwBreak, KwContinue,
  // punctuation
  LBrace, RBrace, LParen, RParen, LBracket, RBracket, Comma, Semi, Dot, Arrow, Question, Colon,
  // operators
  Assign, Plus, Minus, Star, Slash, Percent, Amp, Pipe, Caret, Tilde, Bang,
  Shl, Shr, Lt, Gt, Le, Ge, EqEq, Ne, AndAnd, OrOr, PlusPlus, MinusMinus,
  PlusAssign, MinusAssign, StarAssign, SlashAssign, PercentAssign, AmpAssign, PipeAssign,
  CaretAssign, ShlAssign, ShrAssign,
};

const char* tok_name(Tok t);

struct Token {
  Tok kind = Tok::End;
  Span span;
  std::string text;    // Ident/MapName/VarName: the name with its sigil; String: unescaped
                       // value; AttachPoint: raw text; Invalid: the error message
  uint64_t value = 0;  // Integer
};

}  // namespace rawprobe::lang
