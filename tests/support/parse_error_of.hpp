// tests/support/parse_error_of.hpp
// The io::parse_error a call throws, for tests of malformed input; the test
// fails when the call throws nothing or another exception.
#pragma once

#include <ychart/io/parse_error.hpp>

#include <gtest/gtest.h>

#include <exception>
#include <functional>

inline ychart::io::parse_error parse_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ychart::io::parse_error& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected io::parse_error, got another exception: " << e.what();
    return ychart::io::parse_error("", 0, 0, "", "");
  }
  ADD_FAILURE() << "expected io::parse_error, nothing thrown";
  return ychart::io::parse_error("", 0, 0, "", "");
}
