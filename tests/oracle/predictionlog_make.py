#!/usr/bin/env python3
"""Make the TF Serving fixtures in tests/data/proto/: a real PredictionLog file.

Run from the repository root with the TensorFlow venv (TensorFlow 2.21,
protobuf 7.36.2 upb, tensorflow-serving-api 2.21.0 installed with --no-deps
so that it keeps tensorflow-cpu):

    .venv-tf/bin/pip install --no-deps tensorflow-serving-api==2.21.0
    .venv-tf/bin/python tests/oracle/predictionlog_make.py [--out DIR]
    .venv-tf/bin/python tests/oracle/proto_ref.py --write   # expected/warmup.*

It writes (into tests/data/proto, or DIR):

  serving.pb        a FileDescriptorSet with every file that
                    tensorflow.serving.PredictionLog needs: the descriptors
                    the tensorflow-serving-api wheel's generated modules
                    carry (TF Serving's .proto files as protoc compiled them,
                    and the TensorFlow/XLA/google.protobuf files they
                    import), each file once, dependencies first in import
                    order: what `protoc --include_imports --descriptor_set_out`
                    of prediction_log.proto writes (json_name set on
                    every field, as protoc sets it; no source info).
  warmup.tfrecord   a TF Serving warm-up file (the
                    assets.extra/tf_serving_warmup_requests of TF Serving's
                    "SavedModel Warmup" guide): tf.io.TFRecordWriter, one
                    serialized tensorflow.serving.PredictionLog per record.
                    The records (RECORDS below, printed when run) cover every
                    kind of log: predict_log (inputs made by
                    tf.make_tensor_proto: float/int/string/bool/half tensors,
                    scalars and multi-dimensional shapes, tensor_content and
                    *_val encodings; output_filter; responses), classify_log
                    and regress_log (Input of ExampleList /
                    ExampleListWithContext of tf.train.Example), multi_inference_log,
                    session_run_log, and log_metadata.

Deterministic: no wall clock (timestamps are fixed numbers) and maps are
serialized with deterministic=True (sorted keys), so rerunning rewrites
identical bytes.
"""

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import descriptor_pb2, wrappers_pb2  # noqa: E402
from tensorflow.core.protobuf import config_pb2, named_tensor_pb2  # noqa: E402
from tensorflow_serving.apis import (  # noqa: E402
    classification_pb2, inference_pb2, input_pb2, logging_pb2, model_pb2, predict_pb2,
    prediction_log_pb2, regression_pb2, session_service_pb2)
from tensorflow_serving.config import logging_config_pb2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO = os.path.normpath(os.path.join(HERE, "..", "data", "proto"))

PL = prediction_log_pb2


def descriptor_set():
    """prediction_log.proto and its transitive imports, dependencies first
    (depth-first in import order, each file once, as protoc orders them)."""
    order, seen = [], set()

    def visit(fd):
        if fd.name in seen:
            return
        seen.add(fd.name)
        for dep in fd.dependencies:
            visit(dep)
        order.append(fd)

    visit(PL.DESCRIPTOR)
    fds = descriptor_pb2.FileDescriptorSet()
    for fd in order:
        proto = fds.file.add()
        proto.ParseFromString(fd.serialized_pb)
        add_json_names(proto, fd)
    return fds


def add_json_names(proto, fd):
    """Sets every field's json_name, as protoc's --descriptor_set_out does
    (the generated modules' descriptors leave it out): the pool's value."""
    pkg = proto.package + "." if proto.package else ""

    def message(mp, full):
        desc = fd.pool.FindMessageTypeByName(full)
        for f in mp.field:
            f.json_name = desc.fields_by_name[f.name].json_name
        for f in mp.extension:
            f.json_name = fd.pool.FindExtensionByName(full + "." + f.name).json_name
        for nested in mp.nested_type:
            message(nested, full + "." + nested.name)

    for mp in proto.message_type:
        message(mp, pkg + mp.name)
    for f in proto.extension:
        f.json_name = fd.pool.FindExtensionByName(pkg + f.name).json_name


def spec(name, signature="", version=None, label=None):
    s = model_pb2.ModelSpec(name=name, signature_name=signature)
    if version is not None:
        s.version.CopyFrom(wrappers_pb2.Int64Value(value=version))
    if label is not None:
        s.version_label = label
    return s


def example(**features):
    """A tf.train.Example: float lists, int lists and bytes lists by type."""
    feats = {}
    for key, vals in features.items():
        if all(isinstance(v, bytes) for v in vals):
            feats[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=vals))
        elif all(isinstance(v, int) for v in vals):
            feats[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=vals))
        else:
            feats[key] = tf.train.Feature(float_list=tf.train.FloatList(value=vals))
    return tf.train.Example(features=tf.train.Features(feature=feats))


T = tf.make_tensor_proto


def predict_warmup():
    """TF Serving's own warm-up example: a request only."""
    req = predict_pb2.PredictRequest(model_spec=spec("half_plus_two", "serving_default"),
                                     inputs={"x": T([0.0, 1.0])})
    return PL.PredictionLog(predict_log=PL.PredictLog(request=req))


def predict_full():
    """Many tensor kinds, a version, output_filter, a response and metadata."""
    req = predict_pb2.PredictRequest(model_spec=spec("ranker", "predict_images", version=3))
    req.inputs["image"].CopyFrom(T(np.arange(12, dtype=np.float32).reshape(2, 3, 2) / 8))
    req.inputs["ids"].CopyFrom(T(np.array([[1, -2], [3, 2**40]], dtype=np.int64)))
    req.inputs["words"].CopyFrom(T([[b"caf\xc3\xa9", b"\xff\x00raw"], [b"", b"tab\there"]]))
    req.inputs["scale"].CopyFrom(T(0.1))
    req.inputs["count"].CopyFrom(T(np.int32(-7)))
    req.inputs["mask"].CopyFrom(T(np.array([True, False, True])))
    req.inputs["half"].CopyFrom(T(np.array([1.5, -0.25], dtype=np.float16)))
    req.inputs["dbl"].CopyFrom(T(np.array([1e-300, 2.5], dtype=np.float64)))
    req.output_filter.extend(["scores", "classes"])
    resp = predict_pb2.PredictResponse(model_spec=spec("ranker", "predict_images", version=3))
    resp.outputs["scores"].CopyFrom(T(np.array([[0.125, 0.875], [1e-8, 1.0]], dtype=np.float32)))
    resp.outputs["classes"].CopyFrom(T([[b"cat", b"dog"], [b"dog", b"cat"]]))
    meta = logging_pb2.LogMetadata(
        model_spec=spec("ranker", "predict_images", version=3),
        sampling_config=logging_config_pb2.SamplingConfig(sampling_rate=0.25),
        saved_model_tags=["serve", "gpu"], timestamp_secs=1700000000)
    return PL.PredictionLog(log_metadata=meta,
                            predict_log=PL.PredictLog(request=req, response=resp))


def predict_labelled():
    """A version label instead of a number; client_id (proto3 optional bytes)."""
    req = predict_pb2.PredictRequest(model_spec=spec("ranker", label="canary"),
                                     inputs={"x": T(np.zeros((0, 3), dtype=np.float32))},
                                     client_id=b"")
    return PL.PredictionLog(predict_log=PL.PredictLog(request=req))


def classify():
    """ClassificationRequest over an ExampleList; a response with classes."""
    exs = [example(age=[29], height=[1.75], name=[b"ann"]),
           example(age=[41, -1], height=[1.6, float("inf")], name=[b"b\xc3\xb6b", b"\x00\xff"])]
    req = classification_pb2.ClassificationRequest(
        model_spec=spec("census", "classification", version=1),
        input=input_pb2.Input(example_list=input_pb2.ExampleList(examples=exs)))
    res = classification_pb2.ClassificationResult(classifications=[
        classification_pb2.Classifications(classes=[
            classification_pb2.Class(label=">50K", score=0.75),
            classification_pb2.Class(label="<=50K", score=0.25)]),
        classification_pb2.Classifications(classes=[classification_pb2.Class(label="<=50K")])])
    resp = classification_pb2.ClassificationResponse(model_spec=spec("census", "classification",
                                                                     version=1), result=res)
    meta = logging_pb2.LogMetadata(model_spec=spec("census"), saved_model_tags=["serve"],
                                   timestamp_secs=1700000123)
    return PL.PredictionLog(log_metadata=meta,
                            classify_log=PL.ClassifyLog(request=req, response=resp))


def regress():
    """RegressionRequest over an ExampleListWithContext."""
    ctx = example(city=[b"Z\xc3\xbcrich"], year=[2024])
    exs = [example(rooms=[3], area=[72.5]), example(rooms=[5], area=[130.25])]
    req = regression_pb2.RegressionRequest(
        model_spec=spec("prices", "regress_x"),
        input=input_pb2.Input(example_list_with_context=input_pb2.ExampleListWithContext(
            examples=exs, context=ctx)))
    resp = regression_pb2.RegressionResponse(result=regression_pb2.RegressionResult(
        regressions=[regression_pb2.Regression(value=412000.5),
                     regression_pb2.Regression(value=0.0)]))
    return PL.PredictionLog(regress_log=PL.RegressLog(request=req, response=resp))


def multi_inference():
    """Two tasks over one Input; one classification and one regression result."""
    inp = input_pb2.Input(example_list=input_pb2.ExampleList(examples=[example(x=[0.5, -0.5])]))
    req = inference_pb2.MultiInferenceRequest(tasks=[
        inference_pb2.InferenceTask(model_spec=spec("multi", "classify"),
                                    method_name="tensorflow/serving/classify"),
        inference_pb2.InferenceTask(model_spec=spec("multi", "regress"),
                                    method_name="tensorflow/serving/regress")], input=inp)
    resp = inference_pb2.MultiInferenceResponse(results=[
        inference_pb2.InferenceResult(
            model_spec=spec("multi", "classify", version=2),
            classification_result=classification_pb2.ClassificationResult(classifications=[
                classification_pb2.Classifications(classes=[
                    classification_pb2.Class(label="yes", score=0.5)])])),
        inference_pb2.InferenceResult(
            model_spec=spec("multi", "regress", version=2),
            regression_result=regression_pb2.RegressionResult(
                regressions=[regression_pb2.Regression(value=-1.5)]))])
    meta = logging_pb2.LogMetadata(model_spec=spec("multi"), sampling_config=logging_config_pb2.
                                   SamplingConfig(sampling_rate=1.0), timestamp_secs=0)
    return PL.PredictionLog(log_metadata=meta, multi_inference_log=PL.MultiInferenceLog(
        request=req, response=resp))


def session_run():
    """SessionRunRequest with feeds, fetches, targets and RunOptions."""
    req = session_service_pb2.SessionRunRequest(
        model_spec=spec("legacy_graph", version=9),
        feed=[named_tensor_pb2.NamedTensorProto(name="x:0", tensor=T([[1.0, 2.0]])),
              named_tensor_pb2.NamedTensorProto(name="keep_prob:0", tensor=T(1.0))],
        fetch=["y:0"], target=["init_op"], tensor_name_is_alias=False,
        options=config_pb2.RunOptions(trace_level=config_pb2.RunOptions.SOFTWARE_TRACE,
                                      timeout_in_ms=2500, inter_op_thread_pool=-1))
    resp = session_service_pb2.SessionRunResponse(
        model_spec=spec("legacy_graph", version=9),
        tensor=[named_tensor_pb2.NamedTensorProto(name="y:0", tensor=T([[4.5]]))])
    return PL.PredictionLog(session_run_log=PL.SessionRunLog(request=req, response=resp))


def metadata_only():
    """Only log_metadata (no log_type set)."""
    return PL.PredictionLog(log_metadata=logging_pb2.LogMetadata(
        model_spec=spec("only_meta", version=0), saved_model_tags=["serve"],
        timestamp_secs=-1))


def empty():
    """An empty PredictionLog (a zero-length record)."""
    return PL.PredictionLog()


RECORDS = [predict_warmup, predict_full, predict_labelled, classify, regress, multi_inference,
           session_run, metadata_only, empty]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=PROTO, help="folder to write into (default: tests/data/proto)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    pb = os.path.join(a.out, "serving.pb")
    with open(pb, "wb") as f:
        f.write(descriptor_set().SerializeToString(deterministic=True))
    print("wrote", pb)
    path = os.path.join(a.out, "warmup.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for i, make in enumerate(RECORDS):
            log = make()
            writer.write(log.SerializeToString(deterministic=True))
            print("record %d: %s: %s" % (i, make.__name__, make.__doc__.split("\n")[0]))
    print("wrote", path)


if __name__ == "__main__":
    main()
