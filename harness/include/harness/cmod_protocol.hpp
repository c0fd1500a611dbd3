// The pipe protocol between dlacosim's cmod device (harness/src/cmod_device.cpp) and its server
// process (cmod/server/cmod_server.cpp), which runs NVIDIA's NVDLA C model. C++17: the server is
// compiled with the C model's language level (docs/CMOD.md "How it is driven").
//
// Every request is one opcode byte followed by its fields (little-endian, fixed width). Every
// reply starts with a status byte and the simulated time, then the memory pages the model wrote
// since the last reply (so the device's memory mirror equals the model's), then the request's own
// fields. A status other than kOk is followed by a length-prefixed message and ends the session.
#pragma once

#include <cstdint>

namespace dla::cmod_protocol {

inline constexpr uint32_t kMagic = 0x444c4143;  // "DLAC": the server's first reply, after elaboration
inline constexpr uint32_t kVersion = 1;
inline constexpr uint64_t kPageBytes = 4096;

enum Op : uint8_t {
  kRegWrite = 'w',   // u32 byte address, u32 value
  kRegRead = 'r',    // u32 byte address                    -> u32 value
  kPages = 'm',      // u32 count, count x (u64 page index, kPageBytes bytes): memory the host wrote
  kWaitStatus = 'i', // u32 status address, u32 bit mask, u64 limit in ps of simulated time
                     //                                     -> u8 raised, u32 status, u8 idle
  kWaitLine = 'l',   // u64 limit in ps: until the interrupt line is high -> u8 raised, u32 0, u8 idle
  kQuit = 'q',
};

enum Status : uint8_t {
  kOk = 0,
  kError = 1,  // followed by u32 length and the message
};

}  // namespace dla::cmod_protocol
