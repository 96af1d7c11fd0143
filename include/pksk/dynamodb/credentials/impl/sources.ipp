// SPDX-License-Identifier: BSL-1.0
#pragma once
// The credential sources' definitions (sources.hpp): inline in header-only mode, compiled once
// by <pksk/src.hpp> with PKSK_SEPARATE_COMPILATION.
//   environment.ipp  the AWS_* keys
//   sts.ipp       AssumeRole, AssumeRoleWithWebIdentity, the web identity token file
//   process.ipp   credential_process
//   profile.ipp   a profile: its role, its keys, its credential_process
//   metadata.ipp  the container credentials endpoint, IMDSv2

#include "environment.ipp"
#include "metadata.ipp"
#include "process.ipp"
#include "profile.ipp"
#include "sts.ipp"
