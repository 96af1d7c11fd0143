// SPDX-License-Identifier: BSL-1.0
#pragma once
// A BlobStore (blob/blob_store.hpp) in an Amazon S3 bucket, or any S3-compatible store (MinIO,
// Ceph, moto): the store of blob members for tables on DynamoDB, as DynamoDB's own advice
// keeps large values in S3. Requests go path-style (<endpoint>/<bucket>/<key>), signed with
// SigV4 for the service "s3" with the credentials the DynamoDB backend would use (the same
// default chain, or the same explicit credentials or provider), over the same libcurl client.
// Each object carries its item in its metadata: x-amz-meta-pksk-table, -pk, -sk and -member,
// percent-encoded (HTTP headers are ASCII).

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../blob/blob_store.hpp"
#include "../detail/config.hpp"
#include "credentials.hpp"
#include "credentials/options.hpp"
#include "transport.hpp"

namespace pksk::dynamodb {

// Where an S3BlobStore keeps its objects and how it reaches them.
struct S3Options {
  // The bucket, which must exist.
  std::string bucket{};
  // Empty: https://s3.<region>.amazonaws.com. An S3-compatible store: "http://127.0.0.1:9000".
  std::string endpoint{};
  std::string region{};  // empty: resolve_region, as the DynamoDB backend resolves it
  // As dynamodb::Options: explicit credentials, else a provider, else the default chain.
  std::optional<Credentials> credentials{};
  // See dynamodb::Options::credentials_provider.
  CredentialsProvider credentials_provider{};
  // See dynamodb::Options::credential_chain.
  CredentialOptions credential_chain{};
  // See dynamodb::Options::credentials_refresh_margin.
  std::chrono::milliseconds credentials_refresh_margin{std::chrono::minutes(5)};
  // Per attempt: making the connection.
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(3)};
  // Per attempt: the whole exchange.
  std::chrono::milliseconds request_timeout{std::chrono::seconds(60)};
  // A request that got no answer or a 5xx is sent again, up to this many times in all.
  int max_attempts = 3;
  Transport transport{};  // empty: libcurl
};

// Objects in an S3 bucket (or any S3-compatible store), the metadata as the object's x-amz-meta
// headers: for tables on DynamoDB, as DynamoDB's own guidance keeps large values in S3.
class S3BlobStore final : public BlobStore {
 public:
  // The bucket must exist; nothing is sent until the first operation.
  // Throws: ValidationError for no bucket, BackendError when no region or no credentials are found.
  // Exception safety: strong.
  PKSK_DECL explicit S3BlobStore(S3Options options);

  // PutObject: the object is whole or absent.
  // Throws: BackendError on S3's failure after max_attempts (unavailable, throttled,
  // access_denied, backend_failure).
  // Exception safety: strong: S3 stores the object whole or not at all.
  PKSK_DECL void put(std::string_view key, std::string_view bytes,
                     const BlobMetadata& metadata) override;
  // GetObject: the bytes, or nullopt for no such key.
  // Throws: BackendError on S3's failure after max_attempts (unavailable, throttled,
  // access_denied, backend_failure).
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL std::optional<std::string> get(std::string_view key) override;
  // DeleteObject.
  // Throws: BackendError on S3's failure after max_attempts (unavailable, throttled,
  // access_denied, backend_failure).
  // Exception safety: strong.
  PKSK_DECL void remove(std::string_view key) override;
  // HeadObject: size, time and metadata, or nullopt.
  // Throws: BackendError on S3's failure after max_attempts (unavailable, throttled,
  // access_denied, backend_failure).
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL std::optional<BlobInfo> head(std::string_view key) override;
  // ListObjectsV2, every page.
  // Throws: BackendError on S3's failure after max_attempts (unavailable, throttled,
  // access_denied, backend_failure).
  // Exception safety: strong (a read changes nothing).
  PKSK_DECL std::vector<BlobInfo> list(std::string_view prefix) override;

 private:
  struct State;
  PKSK_DECL HttpResponse send(HttpRequest request, std::string_view what, std::string_view key);

  std::shared_ptr<State> state_;
};

}  // namespace pksk::dynamodb

// What <pksk/src.hpp> looks for to compile this store in its translation unit.
#define PKSK_DETAIL_S3_BLOB_STORE_DECLARED 1

#ifndef PKSK_SEPARATE_COMPILATION
#include "impl/s3_blob_store.ipp"
#endif
