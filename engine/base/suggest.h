// "Did you mean" suggestions: the candidates closest to a misspelt name by edit distance.
// Shared by the script front end, the probe providers and the CLI.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace rawprobe {

// Edit distance: insert, delete, substitute, or swap two adjacent characters, each cost 1.
size_t edit_distance(std::string_view a, std::string_view b);

// The candidates at the smallest distance from `word`, in candidate order, if that distance
// is small enough to be a typo (at most a third of the word's length, and at least 1 edit
// allowed). Empty when nothing is close.
std::vector<std::string> closest_names(std::string_view word, const std::vector<std::string>& candidates);

// "; did you mean 'x'?" or "; did you mean 'x' or 'y'?", or "" when nothing is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace rawprobe
