"""Common mistakes: each error found in the seed notebooks, run on your data beside its fix."""

import streamlit as st

from attention_core import run_attention
from attention_core.lessons import common_mistakes, mistakes_baseline
from translation import N_, _
from ui.blocks import check_yourself, heatmaps, page_frame
from ui.session import run_order
from ui.specs import heatmap_chart

MISTAKES = {
    "sqrt_d_in": (
        N_("Scaling by √d_in instead of √d_k"),
        N_(
            "One notebook's first attention class divides by the square root of the *input* "
            "width. The scale must follow the keys' width d_k, which is what the dot products sum "
            "over."
        ),
    ),
    "num_tokens": (
        N_("Dividing by the number of tokens"),
        N_(
            "One notebook's masked example divides the scores by keys.shape[0], the number of "
            "tokens, instead of by √d_k (keys.shape[-1]). The length of a row has nothing to do "
            "with the size of a dot product, and with more tokens the weights wash out towards "
            "uniform."
        ),
    ),
    "hardcoded_dropout": (
        N_("A dropout rate hard-coded instead of the argument"),
        N_(
            "Some attention modules take a dropout argument and ignore it, building "
            "nn.Dropout(p=0.5); others build nn.Dropout(0.3) and take no rate at all. Either way, "
            "asking for dropout 0 still drops weights in training. Take the rate as an argument "
            "and use it."
        ),
    ),
    "multiply_mask": (
        N_("Masking by multiplying the scores before softmax"),
        N_(
            "Multiplying the scores by the 0/1 causal mask makes a hidden score 0, not −∞. With "
            "softmax after it, as here, e⁰ = 1 and future tokens keep weight (the notebook that "
            "does this divides by the row sum instead: see the next mistake). Fill hidden scores "
            "with −∞ (or zero the weights after softmax and renormalise)."
        ),
    ),
    "sum_normalise": (
        N_("Normalising by the sum instead of softmax"),
        N_(
            "Dividing scores by their row sum gives weights that sum to 1 only on paper: negative "
            "scores give negative weights and a row summing to nearly 0 explodes (one notebook "
            "prints −12.66). Softmax is always positive and stable."
        ),
    ),
    "wrong_module": (
        N_("Printing the wrong module's output"),
        N_(
            "One notebook builds SelfAttentionV2 and then prints sa_V1(inputs), so the “V2” "
            "numbers it shows are V1's. Here: the output of the other initialisation (torch.rand "
            "vs nn.Linear) beside the one you configured."
        ),
    ),
}

page = run_order.setup(__file__)
runs = page.call(common_mistakes, page.embeddings, page.config) or []
labels = page.labels
page_frame.show_header(
    page,
    _("8 · Common mistakes, live"),
    _(
        "These mistakes turn up in notebooks that reimplement the book's code, and each is worth "
        "learning from. Each one runs here on your matrix and settings (with one head), beside "
        "the correct version, with the difference in the third heatmap: blue and orange cells "
        "are where they disagree."
    ),
    result=page.call(run_attention, page.embeddings, mistakes_baseline(page.config)),
)
for index, run in enumerate(runs):
    title, explanation = MISTAKES[run.key]
    # The label is part of an expander's identity: it stays the same when the numbers change,
    # so an open mistake stays open while the learner moves a control.
    with st.expander(
        f"{index + 1}. {_(title)}", expanded=index == 0, key=f"mistake_{run.key}", on_change="rerun"
    ) as section:
        if not section.open:
            continue
        st.markdown(
            _(
                "The weights differ by up to **{max_weight_diff}** (mistake − correct, below); "
                "the context vectors by up to **{max_diff}**."
            ).format(
                max_weight_diff=page.number(run.max_weight_diff), max_diff=page.number(run.max_diff)
            )
        )
        if not page.present:
            st.markdown(_(explanation))
        heatmaps.show_side_by_side(
            page,
            [
                (
                    heatmap_chart.Heatmap(
                        heatmaps.matrix_values(matrix[0]),
                        labels,
                        labels,
                        kind=kind,
                        title=name,
                        description=_("{name}: weights, {count} × {count}.").format(
                            name=name[:1].upper() + name[1:], count=len(labels)
                        ),
                        scale=page.settings["weight_scale"],
                        legend=legend,
                    ),
                    f"hm_{suffix}_{run.key}",
                )
                for matrix, kind, name, suffix, legend in (
                    (run.wrong_weights, "weights", _("the mistake"), "wrong", ""),
                    (run.right_weights, "weights", _("correct"), "right", ""),
                    (
                        run.weight_difference,
                        "difference",
                        _("mistake − correct"),
                        "delta",
                        _("mistake − correct"),
                    ),
                )
            ],
            width=heatmaps.share(page, heatmaps.CONTENT_WIDTH) - 40,  # inside an expander's padding
        )
page_frame.predict(
    page,
    _("Which of these mistakes would a unit test that only checks output shapes catch?"),
    _(
        "None of them: every wrong version returns tensors of exactly the right shape. Only tests "
        "that compare numbers (with known values, or against torch.nn.functional."
        "scaled_dot_product_attention) catch them, which is how this app's core is tested."
    ),
    key="mistakes_shapes",
    choices=(_("All of them"), _("Some of them"), _("None of them")),
    correct=2,
)
check_yourself.show_check_yourself(page)
page_frame.finish(page)
